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
import { DstackPlatform, isReleaseCheckout, startEngine, type RunningEngine } from '@nightjar/engine';
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
import type { Ready } from '../config.js';
import type { Credentials } from '@nightjar/sdk';

export const DEFAULT_ENGINE_PORT = 8443;

const portNoteOf = (chosen: ChosenPort): { portNote?: string } => {
  const note = movedPortNote('the venue (engine)', chosen);
  return note ? { portNote: note } : {};
};

export {
  fillPushHoldOption,
  ledgerTlsPinOption,
  MAX_FILL_PUSH_HOLD_MS,
  marketsOption,
  proverPoolOption,
  START_OPTIONS,
  START_USAGE,
} from './start-options.js';
import {
  fillPushHoldOption,
  ledgerTlsPinOption,
  marketsOption,
  proverPoolOption,
  scaleOutOptions,
  START_OPTIONS,
} from './start-options.js';

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
  /** One engine of several: its markets, the venue's PostgreSQL and its public URL. */
  scaleOut: { markets?: string[]; store?: string; publicUrl?: string };
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
  const markets = marketsOption(opts.markets);
  const scaleOut = { ...(markets ? { markets } : {}), ...scaleOutOptions(opts.store, opts['public-url']) };
  if (opts['pki-dir'] !== undefined && platformKind !== 'simulated')
    throw new UsageError('--pki-dir is the simulated platform’s shared PKI');
  return {
    scaleOut,
    enginePort,
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
      validInputKey: circuitKeys.keys.valid_input_v2,
      // Match proofs: made by the default prover (worker threads), checked with this key first.
      validMatchKey: circuitKeys.keys.valid_match_v2,
      circuitKeys: circuitKeysInfo(circuitKeys),
      ...proverPoolOption(opts['prover-pool'], circuitKeys.keys.valid_lock),
      // The venue process's one log format (venue-log.ts): pino JSON, or drawn on a terminal.
      logger: { level: 'warn', stream: (options.log ?? new VenueLog()).stream },
      ...(c.platformKind === 'dstack' ? { attestation: { platform: await DstackPlatform.open() } } : {}),
      ...(c.opts['pki-dir'] === undefined ? {} : { attestation: { pkiDir: resolve(c.opts['pki-dir']) } }),
      ...c.scaleOut,
      // With --ledger URL and no authority here, the engine logs that the operator must register its key.
      ...(registerTeeKeys ? { registerTeeKeys } : {}),
    });
    closers.push(() => engine.close());
    // The certificate is public and new each boot; local tools pin it from here.
    writeSecretFile(join(engineDir, 'tls-cert.pem'), engine.certificate.certPem);
    const admin = dev ? await devAdminCredentials(engineDir, engine) : undefined;
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

/**
 * Dev mode only: the dev admin's credentials, kept (0600) so every boot's ready.json can carry them.
 * An engine joining accounts another engine already holds (a shared `--store`) finds an admin but
 * no credentials of its own: it makes an admin of its own there, for its ready.json.
 */
async function devAdminCredentials(engineDir: string, engine: RunningEngine): Promise<Credentials> {
  const file = join(engineDir, 'dev-admin-credentials.json');
  const saved = engine.devAdmin ? undefined : readSecretFile(file);
  if (saved !== undefined) return JSON.parse(saved) as Credentials;
  const made =
    engine.devAdmin ?? (await engine.context.accounts.createAccount({ is_admin: true, label: 'dev-admin' }));
  const creds = credentialsOf(made);
  writeSecretFile(file, JSON.stringify(creds) + '\n');
  return creds;
}
