/**
 * `nightjar start`'s flags: the usage text, the parser's table, and the checks of the flags whose
 * values need more than a type (start.ts runs the venue from them).
 */
import type { SnarkjsVerificationKey } from '@nightjar/crypto';
import { DEFAULT_FILL_PUSH_HOLD_MS } from '@nightjar/engine';
import { UsageError } from '../args.js';
import type { Options } from '../command.js';

/** The largest `--fill-push-hold-ms`: ten seconds of delay on every fill is as much as a trader bears. */
export const MAX_FILL_PUSH_HOLD_MS = 10_000;
export const START_USAGE = `nightjar start [--data-dir D] [--port P] [--ledger URL [--ledger-tls-pin HEX]] [--token-ttl SECONDS]
               [--slot-ms N] [--fill-push-hold-ms N] [--platform simulated|dstack]
               [--no-dev --authority-key FILE] [--circuit-keys DIR]
               [--markets SYM[,SYM] --store URL --public-url URL [--pki-dir DIR]]
               [--prover-pool URL]

  Dev mode by default (simulated platform): a ledger faucet, fault injection, a dev admin whose
  credentials ready.json carries, and the dev-ceremony circuit keys. Never for real value; see --no-dev.

  --data-dir D         state of the ledger and the engine (default ./.nightjar)
  --port P             HTTPS port of the engine (default 8443, or the next free one when it is taken;
                       0 picks any free one; a given port that is taken is an error)
  --ledger URL         use a running ledger instead of starting one (the started one serves plain
                       HTTP on 127.0.0.1 and TLS on another loopback port: ready.json's ledger_url,
                       ledger_tls_url and ledger_tls_spki_sha256)
  --ledger-tls-pin HEX with an https:// --ledger: the SHA-256 of its certificate's SPKI (\`nightjar
                       ledger --tls-port\` prints it); the engine and local tools pin it
  --fill-push-hold-ms N  largest random hold on a fill push, 0..${MAX_FILL_PUSH_HOLD_MS} (default ${DEFAULT_FILL_PUSH_HOLD_MS};
                       0 turns it off): a push landing one slot after its settlement names the
                       trader of that match to whoever watches both; fills arrive up to N ms later
  --token-ttl SECONDS  bearer token lifetime, 1..3600 (default 3600)
  --slot-ms N          slot length of the started ledger (default 400)
  --platform KIND      attestation platform: simulated (default; its PKI under D/engine/attestation)
                       or dstack (a real CVM's guest agent at /var/run/dstack.sock)
  --no-dev             production mode (implied by --platform dstack): no faucet, no dev_* ledger
                       methods (fault injection, clock), no dev admin in ready.json or on disk: the
                       first boot prints the first admin's credentials once, on this terminal only;
                       the dev-ceremony circuit keys are refused (give --circuit-keys)
  --authority-key FILE production: the ledger's genesis authority, a 0600 JSON file
                       {admin_seed, fee_owner_commitment} (or env NIGHTJAR_AUTHORITY_KEY); it
                       initializes a new ledger and registers the engine's settlement key
  --circuit-keys DIR   verification keys of a real ceremony: manifest.json pinning the SHA-256
                       of valid_input_v2.vkey.json, valid_spend_v2.vkey.json and, to settle,
                       valid_lock.vkey.json and valid_match_v2.vkey.json

  One engine of several (docs/scale-out.md): each writes its own markets of one ledger (--ledger).
  --markets SYM[,SYM]  the markets this engine writes (default every market of the ledger); the
                       others are listed on /instruments at the engine that writes them
  --store URL          the venue's PostgreSQL (postgres://…, migrated at boot): accounts,
                       revocations, settings and the per-account order and login buckets, shared by
                       every engine (while it is unreachable, authenticated requests answer 503
                       5001); and its engines directory (which engine writes which market; the
                       signer set is every engine's key). A market another engine writes refuses
                       this one unless that engine's heartbeat is 60 s stale
  --public-url URL     the https:// URL clients reach this engine at (needed with --store)
  --pki-dir DIR        simulated platform: the venue's shared simulated Intel PKI (one root every
                       client pins for every engine; default D/engine/attestation/pki)
  --prover-pool URL    postgres://… of a prover job queue: match and lock proofs go to attested
                       \`nightjar prover\` workers (each proof verified here before use); proofs are
                       made in process while no worker is attested, and always without this flag
`;

/** The flags of `nightjar start` that `startVenue` parses (the command adds --demo-traders). */
export const START_OPTIONS = {
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  ledger: { type: 'string' },
  'ledger-tls-pin': { type: 'string' },
  'fill-push-hold-ms': { type: 'string' },
  'token-ttl': { type: 'string' },
  'slot-ms': { type: 'string' },
  platform: { type: 'string' },
  'no-dev': { type: 'boolean' },
  'authority-key': { type: 'string' },
  'circuit-keys': { type: 'string' },
  markets: { type: 'string' },
  store: { type: 'string' },
  'public-url': { type: 'string' },
  'pki-dir': { type: 'string' },
  'prover-pool': { type: 'string' },
} as const satisfies Options;

/** `--prover-pool URL`: the engine's options for it (a postgres:// URL), or none. */
export function proverPoolOption(
  url: string | undefined,
  validLockKey: SnarkjsVerificationKey | undefined,
): { proverPool?: { queueUrl: string; validLockKey?: SnarkjsVerificationKey } } {
  if (url === undefined) return {};
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError('--prover-pool must be a postgres:// URL');
  return { proverPool: { queueUrl: url, ...(validLockKey ? { validLockKey } : {}) } };
}

/** `--markets`: comma-separated symbols (e.g. SOL-USDC,ETH-USDC), each once. */
export function marketsOption(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const symbols = value.split(',').map((s) => s.trim());
  if (symbols.some((s) => !/^[A-Z0-9]+-[A-Z0-9]+$/.test(s)))
    throw new UsageError(`--markets takes symbols like SOL-USDC,ETH-USDC, got ${value}`);
  if (new Set(symbols).size !== symbols.length) throw new UsageError('--markets names a symbol twice');
  return symbols;
}

/** `--store`, `--public-url`: a postgres:// URL, and with it the https:// URL of this engine. */
export function scaleOutOptions(
  store: string | undefined,
  publicUrl: string | undefined,
): { store?: string; publicUrl?: string } {
  if (store !== undefined && !/^postgres(ql)?:\/\//.test(store))
    throw new UsageError('--store takes a PostgreSQL URL (postgres://user:password@host:port/db)');
  if (publicUrl !== undefined && !/^https:\/\/[^/\s]+$/.test(publicUrl))
    throw new UsageError('--public-url takes the https://host:port clients reach this engine at');
  if (store !== undefined && publicUrl === undefined)
    throw new UsageError('--store needs --public-url: the other engines list this one there');
  return { ...(store === undefined ? {} : { store }), ...(publicUrl === undefined ? {} : { publicUrl }) };
}

/** `--fill-push-hold-ms`: an integer 0..MAX_FILL_PUSH_HOLD_MS, the engine's default when absent. */
export function fillPushHoldOption(value: string | undefined): number {
  if (value === undefined) return DEFAULT_FILL_PUSH_HOLD_MS;
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > MAX_FILL_PUSH_HOLD_MS)
    throw new UsageError(`--fill-push-hold-ms must be 0..${MAX_FILL_PUSH_HOLD_MS}, got ${value}`);
  return n;
}

/** `--ledger-tls-pin`: 64 hex digits, only beside an https:// `--ledger`. */
export function ledgerTlsPinOption(ledger: string | undefined, pin: string | undefined): string | undefined {
  if (pin === undefined) return undefined;
  if (ledger === undefined || !/^https:\/\//i.test(ledger))
    throw new UsageError('--ledger-tls-pin pins the certificate of an https:// --ledger URL');
  if (!/^[0-9a-fA-F]{64}$/.test(pin))
    throw new UsageError('--ledger-tls-pin must be 64 hex digits (the SHA-256 of the certificate SPKI)');
  return pin.toLowerCase();
}
