/**
 * One SDK error per code with a sample context (and a variant for each branch of a fix that reads
 * its context), for tests that check every code the same way on every surface. No engine loaded.
 */
import {
  NightjarError,
  NIGHTJAR_ERROR_NAMES,
  isVenueErrorCode,
  venueError,
  type NightjarErrorCode,
  type NightjarErrorContext,
  type SdkErrorCode,
} from '@nightjar/sdk';

const MINT = 'So11111111111111111111111111111111111111112';
const SHORT = { mint: MINT, required: 5n, available: 1n };
const detail = { detail: 'something went wrong: use 2' };
const rpc = { ...detail, rpcCode: -32602 };
const refused = { instruction: 'withdraw', ledgerCode: 'NoteSpent', landed: true, signature: 's' };

const SDK_SAMPLES: { [C in SdkErrorCode]: NightjarErrorContext[C] } = {
  6001: detail,
  6002: detail,
  6003: detail,
  6004: detail,
  6005: { tcbStatus: 'OutOfDate' },
  6006: detail,
  6007: detail,
  6008: detail,
  6009: { ...detail, reason: 'malformed' },
  6010: detail,
  6011: { register: 'mrtd' },
  6012: detail,
  6013: detail,
  6014: detail,
  6015: detail,
  6016: detail,
  7001: SHORT,
  7002: { ...SHORT, waitedMs: 1000 },
  7003: { ...SHORT, readyAt: 0 },
  7004: { ...SHORT, commitment: 'c', reason: 'order' },
  7005: { ...detail, inputTotal: 1n, outputTotal: 2n },
  7006: { mint: MINT, count: 1 },
  7007: { signature: 's', commitments: ['c'], waitedMs: 5 },
  7008: { signature: 's', commitment: 'c', waitedMs: 5 },
  7009: { recipient: 'R' },
  7010: { orderId: 'o', status: 'filled' },
  7011: detail,
  8001: { ...rpc, method: 'getNonce' },
  8002: { ...rpc, method: 'getNonce', url: 'http://127.0.0.1:1', rpcCode: -32005 },
  8003: refused,
  8004: { instruction: 'withdraw', signature: 's', waitedMs: 5 },
  8005: rpc,
  8006: rpc,
  9001: detail,
  9002: detail,
  9003: detail,
  9004: detail,
  9005: { dropped: 3 },
  9006: detail,
  9007: detail,
  9900: { status: 404, venueMessage: 'x', venueCode: 1999 },
};

/** The contexts a fix reads: each branch once more. */
const VARIANTS: NightjarError[] = [
  ...(['unknown', 'spent', 'locked', 'reserved', 'pending'] as const).map(
    (reason) => new NightjarError(7004, { ...SHORT, commitment: 'c', reason }),
  ),
  new NightjarError(7005, { ...detail, inputTotal: 2n, outputTotal: 2n }),
  ...['NoteLocked', 'UnknownRoot', 'Other'].map(
    (ledgerCode) => new NightjarError(8003, { ...refused, ledgerCode }),
  ),
  new NightjarError(8003, { ...refused, ledgerCode: '-32007', landed: false }),
  new NightjarError(8005, { ...rpc, rpcCode: -32005 }),
  ...[401, 403, 409, 429, 503, 500].map((status) => venueError(1999, status, 'x')),
  venueError(1099, 400, 'x'),
  venueError(1401, 429, 'x', { retryAfterSeconds: 3 }),
];

/** Every code's sample error, then the variants. */
export function sampleErrors(): NightjarError[] {
  const codes = Object.keys(NIGHTJAR_ERROR_NAMES).map(Number) as NightjarErrorCode[];
  const samples = codes.map((code) =>
    isVenueErrorCode(code)
      ? venueError(code, code >= 4000 && code < 5000 ? 0 : 400, 'x')
      : new NightjarError(code, SDK_SAMPLES[code as SdkErrorCode] as never),
  );
  return [...samples, ...VARIANTS];
}
