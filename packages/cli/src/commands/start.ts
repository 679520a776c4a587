/**
 * `nightjar start`: the venue on one machine. Starts the ledger as its own JSON-RPC server on a
 * local port (unless `--ledger URL` names one), then the engine talking to it over JSON-RPC, with
 * the demo markets; writes `<data-dir>/ready.json` once both answer. Ctrl-C or SIGTERM shuts both
 * down and removes ready.json.
 *
 * Dev mode (the default with the simulated platform): a dev ledger (faucet, dev_* methods, its
 * generated admin), and a dev venue admin whose credentials ready.json carries. Production mode
 * (`--no-dev`, always on dstack): none of these; the operator's genesis authority key initializes
 * the ledger and registers the settlement key, the first admin's credentials are shown once, and
 * the dev-ceremony circuit keys are refused.
 *
 * The ledger it starts answers plain HTTP on loopback (the engine's connection) and TLS on another
 * loopback port with its persistent certificate: ready.json names both, and local tools (the CLI,
 * the app, the demo traders) use the TLS URL with its pin.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { circuitKeysInfo, loadCircuitKeys } from '@nightjar/circuits';
import { DEFAULT_FILL_PUSH_HOLD_MS, DstackPlatform, isReleaseCheckout, startEngine } from '@nightjar/engine';
import {
  createGroth16Verifier,
  ensureDevGenesis,
  ensureGenesis,
  Ledger,
  loadOrCreateDevKeys,
  loadOrCreateLedgerIdentity,
  RpcLedgerClient,
  runAsAdmin,
  serveLedger,
} from '@nightjar/ledger';
import { ensurePrivateDir, readSecretFile, writeSecretFile } from '@nightjar/protocol';
import { parseOptions, portOption, positiveIntOption, UsageError } from '../args.js';
import { readAuthorityKey, type LoadedAuthority } from '../authority-key.js';
import { choosePort, movedPortNote, type ChosenPort } from '../ports.js';
import { VenueLog } from '../venue-log.js';
import type { Options } from '../command.js';
import type { Ready } from '../config.js';
import type { Credentials } from '@nightjar/sdk';

/** The largest `--fill-push-hold-ms`: ten seconds of delay on every fill is as much as a trader bears. */
export const MAX_FILL_PUSH_HOLD_MS = 10_000;
export const DEFAULT_ENGINE_PORT = 8443;

const portNoteOf = (chosen: ChosenPort): { portNote?: string } => {
  const note = movedPortNote('the venue (engine)', chosen);
  return note ? { portNote: note } : {};
};

export const START_USAGE = `nightjar start [--data-dir D] [--port P] [--ledger URL [--ledger-tls-pin HEX]] [--token-ttl SECONDS]
               [--slot-ms N] [--fill-push-hold-ms N] [--platform simulated|dstack]
               [--no-dev --authority-key FILE] [--circuit-keys DIR] [--store postgres://…]
               [--prover-pool postgres://…]

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
  --store URL          a postgres:// URL: accounts, revocations, settings and the per-account
                       order and login buckets in PostgreSQL, shared by every engine given it
                       (migrated at boot); default the SQLite file in D/engine. While it is
                       unreachable, authenticated requests answer 503 5001
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
  store: { type: 'string' },
  'prover-pool': { type: 'string' },
} as const satisfies Options;

/** `--store`: a postgres:// URL, or absent (the SQLite file). */
export function storeOption(value: string | undefined): string | undefined {
  if (value !== undefined && !/^postgres(ql)?:\/\/./.test(value))
    throw new UsageError('--store must be a postgres:// URL');
  return value;
}

/** `--prover-pool URL`: the engine's options for it (a postgres:// URL), or none. */
export function proverPoolOption(
  url: string | undefined,
  validLockKey: StartConfig['circuitKeys']['keys']['valid_lock'],
): { proverPool?: { queueUrl: string; validLockKey?: NonNullable<typeof validLockKey> } } {
  if (url === undefined) return {};
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError('--prover-pool must be a postgres:// URL');
  return { proverPool: { queueUrl: url, ...(validLockKey ? { validLockKey } : {}) } };
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

export interface RunningVenue {
  readyFile: string;
  ready: Ready;
  /** With `deferReady`: writes ready.json (with `extra`, e.g. the app's URL) once the caller is ready too. */
  writeReady(extra?: Partial<Ready>): void;
  dev: boolean;
  /** Production mode, first boot only: the first admin's credentials, never written anywhere. */
  firstAdmin?: Credentials;
  /** Set when the default engine port was taken and the engine listens on the next free one. */
  portNote?: string;
  close(): Promise<void>;
}

/** What `startVenue` starts from: its flags, checked, and the circuit keys. */
interface StartConfig {
  opts: ReturnType<typeof parseOptions<typeof START_OPTIONS>>;
  platformKind: 'simulated' | 'dstack';
  dev: boolean;
  authority: LoadedAuthority | undefined;
  circuitKeys: Awaited<ReturnType<typeof loadCircuitKeys>>;
  dataDir: string;
  tokenTtlSeconds: number;
  fillPushHoldMs: number;
  ledgerTlsPin: string | undefined;
  enginePort: ChosenPort;
  store: string | undefined;
}

async function startConfig(argv: string[]): Promise<StartConfig> {
  const opts = parseOptions(argv, START_OPTIONS);
  // The engine attests to the release's sources (its compose hash), which an installed CLI lacks.
  if (!isReleaseCheckout())
    throw new UsageError(
      'nightjar start runs a venue from a checkout of the Nightjar repository (`npm ci && npm start` there); ' +
        'this installed CLI trades against a running venue: pass its --data-dir, or set NIGHTJAR_DATA_DIR',
    );
  const platformKind = opts.platform ?? 'simulated';
  if (platformKind !== 'simulated' && platformKind !== 'dstack')
    throw new UsageError('--platform must be simulated or dstack');
  // A real CVM never runs the dev shortcuts.
  const dev = !opts['no-dev'] && platformKind !== 'dstack';
  const authorityFile = opts['authority-key'] ?? (dev ? undefined : process.env.NIGHTJAR_AUTHORITY_KEY);
  if (dev && authorityFile !== undefined)
    throw new UsageError('--authority-key is for production (--no-dev)');
  const authority = authorityFile === undefined ? undefined : readAuthorityKey(authorityFile);
  if (!dev && !authority && opts.ledger === undefined)
    throw new UsageError(
      'production mode starts its ledger as the genesis authority: give --authority-key FILE',
    );
  const circuitKeys = await loadCircuitKeys({ dir: opts['circuit-keys'], allowDevOnly: dev });
  const dataDir = resolve(opts['data-dir'] ?? '.nightjar');
  const tokenTtlSeconds = positiveIntOption('token-ttl', opts['token-ttl'], 3600);
  const fillPushHoldMs = fillPushHoldOption(opts['fill-push-hold-ms']);
  const ledgerTlsPin = ledgerTlsPinOption(opts.ledger, opts['ledger-tls-pin']);
  if (tokenTtlSeconds > 3600) throw new UsageError('--token-ttl must be at most 3600');
  const given = opts.port === undefined ? undefined : portOption(opts.port, 0);
  const enginePort = await choosePort('--port', given, DEFAULT_ENGINE_PORT);
  return {
    enginePort,
    store: storeOption(opts.store),
    opts,
    platformKind,
    dev,
    authority,
    circuitKeys,
    dataDir,
    tokenTtlSeconds,
    fillPushHoldMs,
    ledgerTlsPin,
  };
}

/** The ledger the engine talks to, and what its admin and local tools need of it. */
interface VenueLedger {
  url: string;
  /** The ledger's admin (dev: its generated key; production: the operator's authority) registers
   * the engine's settlement key at first boot. */
  registerTeeKeys?: (keys: string[]) => Promise<void>;
  /** The dev ledger served here: its faucet's secret goes into ready.json (0600) for local tools. */
  devSecret?: string;
  /** The ledger over TLS for local tools (the engine keeps the plain loopback URL). */
  tls?: { url: string; spkiSha256: string };
}

/** Opens and serves the ledger of `<data-dir>/ledger` (dev genesis, or the authority's). */
async function serveLocalLedger(c: StartConfig, closers: (() => Promise<void>)[]): Promise<VenueLedger> {
  const ledgerDir = join(c.dataDir, 'ledger');
  const ledger = Ledger.open({
    dataDir: ledgerDir,
    dev: c.dev,
    ...(c.authority ? { genesis: c.authority.genesis } : {}),
    verifier: await createGroth16Verifier(c.circuitKeys.keys),
    clock: { mode: 'auto', slotMs: positiveIntOption('slot-ms', c.opts['slot-ms'], 400) },
  });
  closers.push(() => ledger.close());
  let registerTeeKeys: (keys: string[]) => Promise<void>;
  if (c.dev) {
    const devKeys = loadOrCreateDevKeys(ledgerDir);
    await ensureDevGenesis(ledger, devKeys);
    registerTeeKeys = (keys) =>
      runAsAdmin(ledger, devKeys.adminSeed, [{ name: 'set_tee_keys', args: { keys } }]);
  } else registerTeeKeys = await asAuthority(ledger, c.authority!);
  // Kept in the ledger's directory: a restart keeps the pin local tools have.
  const identity = await loadOrCreateLedgerIdentity(ledgerDir);
  const server = await serveLedger(ledger, {
    port: 0,
    tls: { keyPem: identity.keyPem, certPem: identity.certPem, host: '127.0.0.1', port: 0 },
  });
  closers.push(() => server.close());
  return {
    url: server.url,
    registerTeeKeys,
    ...(server.devSecret !== undefined ? { devSecret: server.devSecret } : {}),
    ...(server.tlsUrl && server.tlsSpkiSha256
      ? { tls: { url: server.tlsUrl, spkiSha256: server.tlsSpkiSha256 } }
      : {}),
  };
}

/** What ready.json says of the venue: the engine, the ledger, and in dev mode the admin. */
function readyOf(
  engine: Awaited<ReturnType<typeof startEngine>>,
  ledger: VenueLedger,
  admin: Credentials | undefined,
): Ready {
  const { tls, devSecret } = ledger;
  return {
    base_url: engine.url,
    ledger_url: ledger.url,
    ...(tls ? { ledger_tls_url: tls.url, ledger_tls_spki_sha256: tls.spkiSha256 } : {}),
    boot_session_id: engine.bootSessionId,
    compose_hash: engine.attestation.identity.compose_hash,
    ...(engine.attestation.rootCa?.path ? { platform_root: engine.attestation.rootCa.path } : {}),
    ...(admin ? { admin } : {}),
    ...(devSecret ? { ledger_dev_secret: devSecret } : {}),
  };
}

/** `--ledger URL`: a running ledger, pinned when `--ledger-tls-pin` is given. */
function remoteLedger(c: StartConfig, url: string): VenueLedger {
  return c.ledgerTlsPin === undefined ? { url } : { url, tls: { url, spkiSha256: c.ledgerTlsPin } };
}

/**
 * Starts the ledger and the engine. ready.json is written once they answer, or with `deferReady`
 * when the caller calls `writeReady` (`nightjar start` waits for the app first: tests poll for it).
 */
export async function startVenue(
  argv: string[],
  options: { deferReady?: boolean; log?: VenueLog } = {},
): Promise<RunningVenue> {
  const c = await startConfig(argv);
  const { opts, dev, authority, circuitKeys, dataDir, ledgerTlsPin } = c;
  // ssh's StrictModes: a data directory another user made or may write to is refused, not adopted.
  ensurePrivateDir(dataDir);
  const readyFile = join(dataDir, 'ready.json');
  rmSync(readyFile, { force: true });

  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
    rmSync(readyFile, { force: true });
  };
  try {
    const venueLedger =
      opts.ledger === undefined ? await serveLocalLedger(c, closers) : remoteLedger(c, opts.ledger);
    const client = new RpcLedgerClient(
      venueLedger.url,
      ledgerTlsPin === undefined ? {} : { tls: { spkiSha256: ledgerTlsPin } },
    );
    closers.push(() => client.close());
    await client.connectEvents();
    const registerTeeKeys =
      opts.ledger !== undefined && authority
        ? await asAuthority(client, authority)
        : venueLedger.registerTeeKeys;

    const engineDir = join(dataDir, 'engine');
    const engine = await startEngine({
      ledger: client,
      dataDir: engineDir,
      port: c.enginePort.port,
      dev,
      tokenTtlSeconds: c.tokenTtlSeconds,
      fillPushHold: { maxDelayMs: c.fillPushHoldMs },
      ...(c.store === undefined ? {} : { store: c.store }),
      validInputKey: circuitKeys.keys.valid_input_v2,
      // Match proofs: made by the default prover (worker threads), checked with this key first.
      validMatchKey: circuitKeys.keys.valid_match_v2,
      circuitKeys: circuitKeysInfo(circuitKeys),
      ...proverPoolOption(opts['prover-pool'], circuitKeys.keys.valid_lock),
      // The venue process's one log format (venue-log.ts): pino JSON, or drawn on a terminal.
      logger: { level: 'warn', stream: (options.log ?? new VenueLog()).stream },
      ...(c.platformKind === 'dstack' ? { attestation: { platform: await DstackPlatform.open() } } : {}),
      // With --ledger URL and no authority here, the engine logs that the operator must register its key.
      ...(registerTeeKeys ? { registerTeeKeys } : {}),
    });
    closers.push(() => engine.close());
    // The certificate is public and new each boot; local tools pin it from here.
    writeSecretFile(join(engineDir, 'tls-cert.pem'), engine.certificate.certPem);
    const admin = dev ? devAdminCredentials(engineDir, engine.devAdmin) : undefined;
    const firstAdmin = dev ? undefined : await engine.context.accounts.ensureFirstAdmin('operator');

    const ready = readyOf(engine, venueLedger, admin);
    const writeReady = (extra: Partial<Ready> = {}) => {
      Object.assign(ready, extra);
      writeSecretFile(readyFile, JSON.stringify(ready, null, 2) + '\n');
    };
    if (!options.deferReady) writeReady();
    return {
      readyFile,
      ready,
      writeReady,
      dev,
      ...(firstAdmin ? { firstAdmin: credentialsOf(firstAdmin) } : {}),
      ...portNoteOf(c.enginePort),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** Production: genesis as the operator's authority (once), and its `set_tee_keys` for the engine. */
async function asAuthority(
  ledger: Parameters<typeof ensureGenesis>[0],
  authority: LoadedAuthority,
): Promise<(keys: string[]) => Promise<void>> {
  await ensureGenesis(ledger, authority.key);
  if ((await ledger.getVault()).admin !== authority.genesis.admin)
    throw new Error('the ledger’s vault has another admin than --authority-key; refusing to start');
  return (keys) => runAsAdmin(ledger, authority.key.adminSeed, [{ name: 'set_tee_keys', args: { keys } }]);
}

const credentialsOf = (c: Credentials): Credentials => ({
  api_key: c.api_key,
  api_secret: c.api_secret,
  passphrase: c.passphrase,
});

/** Dev mode only: the dev admin's credentials, kept (0600) so every boot's ready.json can carry them. */
function devAdminCredentials(engineDir: string, created: Credentials | undefined): Credentials {
  const file = join(engineDir, 'dev-admin-credentials.json');
  if (created) {
    const creds = credentialsOf(created);
    writeSecretFile(file, JSON.stringify(creds) + '\n');
    return creds;
  }
  const saved = readSecretFile(file);
  if (saved === undefined)
    throw new Error(`the dev admin exists but ${file} is missing; remove ${engineDir} to start afresh`);
  return JSON.parse(saved) as Credentials;
}
