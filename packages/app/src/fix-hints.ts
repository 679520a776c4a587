/**
 * The `fix` the app answers for an SDK error: the SDK's sentence (`err.fix`, the same the CLI
 * prints), then, where the app has its own how-to (a route or a file), that hint in parentheses
 * from this table. Only the parenthesised hint is the app's own.
 */
import { venueFamilyOf, type NightjarError, type NightjarErrorCode } from '@nightjar/sdk';

type Hint<C extends NightjarErrorCode> = string | ((err: NightjarError<C>) => string | undefined);
export type AppHints = { [C in NightjarErrorCode]?: Hint<C> };

const VENUE_INFO = "GET /api/v1/venue; ready.json's platform_root and compose_hash";
const BALANCES = 'GET /api/v1/balances';
const START = '`npm start`';

export const APP_FIX_HINTS: AppHints = {
  1101: '<data-dir>/app/credentials.json, then restart the app',
  1150: 'POST /api/v1/operator/accounts/{api_key}/enable',
  6001: VENUE_INFO,
  6002: VENUE_INFO,
  6003: VENUE_INFO,
  6004: VENUE_INFO,
  6005: VENUE_INFO,
  6006: VENUE_INFO,
  6007: VENUE_INFO,
  6008: VENUE_INFO,
  6009: VENUE_INFO,
  6010: VENUE_INFO,
  6011: VENUE_INFO,
  6012: VENUE_INFO,
  6013: VENUE_INFO,
  6014: VENUE_INFO,
  6015: `${START}; the app reconnects and checks it again`,
  6016: VENUE_INFO,
  7001: 'POST /api/v1/deposits',
  7004: (err) => (err.context.reason === 'order' ? 'DELETE /api/v1/orders/{id}' : BALANCES),
  7007: BALANCES,
  7008: BALANCES,
  7009: '`confirm_funding_link: true`',
  7011: '<data-dir>/app/wallet-password',
  8002: START,
  8003: (err) => (err.retryable ? undefined : BALANCES),
  8004: BALANCES,
  8005: (err) => (err.retryable ? START : 'then deposit without `faucet`'),
  9001: `${START}; the app reconnects by itself`,
  // The SDK's parameter messages end with what to change after a colon: that part is the hint.
  9004: (err) => tailOf(err.message),
  // A venue code the SDK does not know: its family's hint.
  9900: (err) => hintOf(venueFamilyOf(err.context.venueCode, err.context.status), err),
};

function hintOf(code: NightjarErrorCode, err: NightjarError): string | undefined {
  // The table is indexed by every code; TypeScript cannot pair one code with its row itself.
  const hint = APP_FIX_HINTS[code] as Hint<NightjarErrorCode> | undefined;
  return typeof hint === 'function' ? hint(err) : hint;
}

function tailOf(text: string): string | undefined {
  const i = text.lastIndexOf(': ');
  return i > 0 ? text.slice(i + 2) : undefined;
}

/** The app's own how-to for an SDK error (a route, a file or a command), if it has one. */
export function appHint(err: NightjarError): string | undefined {
  return hintOf(err.code, err);
}

/** The `fix` the app answers: the SDK's sentence, then the app's hint in parentheses. */
export function appFix(err: NightjarError): string {
  const hint = appHint(err);
  return hint ? `${err.fix} (${hint})` : err.fix;
}
