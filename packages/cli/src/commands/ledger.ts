/**
 * `nightjar ledger`: the embedded chain as its own JSON-RPC server. Prints its URL once it answers;
 * Ctrl-C (SIGINT) or SIGTERM closes it cleanly, keeping its state in the data directory. Plain
 * HTTP is served on loopback only; another machine reaches the ledger over TLS (`--tls-port`),
 * with the certificate kept in the data directory and pinned by its clients.
 */
import { join, resolve } from 'node:path';
import { loadCircuitKeys } from '@nightjar/circuits';
import {
  createGroth16Verifier,
  DEFAULT_FRESH_SIGNER_WORK_BITS,
  ensureDevGenesis,
  Ledger,
  DEV_SECRET_FILE,
  loadOrCreateDevKeys,
  loadOrCreateLedgerIdentity,
  MAX_FRESH_SIGNER_WORK_BITS,
  parseGenesisAuthority,
  serveLedger,
  type GenesisAuthority,
} from '@nightjar/ledger';
import { parseOptions, portOption, positiveIntOption, UsageError } from '../args.js';
import type { Options } from '../command.js';

export const LEDGER_USAGE = `nightjar ledger [--port P] [--host H] [--tls-port P] [--tls-host H]
                [--allow-host NAMES] [--allow-origin ORIGINS] [--data-dir D] [--slot-ms N] [--manual-clock]
                [--no-dev --genesis-admin KEY --fee-owner-commitment HEX] [--circuit-keys DIR]
                [--fresh-signer-work-bits N]

  --port P        port to listen on (default 8899; 0 picks a free one)
  --host H        interface of the plain HTTP listener: a loopback address (default 127.0.0.1);
                  another interface is refused unless TLS serves it: \`--host H --tls-port P\`
                  is \`--tls-host H --tls-port P\` (plain HTTP stays on 127.0.0.1)
  --tls-port P    also serve JSON-RPC and /ws over HTTPS/WSS on port P (0 picks a free one), with
                  a self-signed certificate kept in <data-dir>/tls-identity.pem (0600; valid a
                  year, the same after a restart); prints the TLS URL and the certificate's SPKI
                  SHA-256, which clients pin (ready.json ledger_tls_spki_sha256, --ledger-tls-pin)
  --tls-host H    interface of the TLS listener (default --host, else 127.0.0.1)
  --allow-host NAMES      comma-separated host names requests may carry in Host besides the
                          loopback names and --host (for a ledger served on another interface)
  --allow-origin ORIGINS  comma-separated origins (https://name[:port]) whose browser requests are
                          served; by default a request carrying any Origin is refused
  --data-dir D    where the chain's state lives (default ./.nightjar/ledger)
  --slot-ms N     slot length in milliseconds (default 400)
  --manual-clock  slots advance only through dev_advanceSlots (for tests; dev mode only)
                  Dev mode: dev_* and requestAirdrop need the secret in <data-dir>/dev-secret,
                  sent as the X-Nightjar-Dev-Secret header
  --no-dev        production: no faucet, no dev_* methods (fault injection, clock), no dev genesis;
                  only the configured genesis authority may initialize the vault, and the committed
                  dev-ceremony circuit keys are refused (give --circuit-keys)
  --genesis-admin KEY          with --no-dev: Base58 public key of the genesis authority, the only
                               signer whose initialize lands (or env NIGHTJAR_GENESIS_ADMIN)
  --fee-owner-commitment HEX   with --no-dev: the fee owner commitment initialize must carry
                               (or env NIGHTJAR_FEE_OWNER_COMMITMENT)
  --circuit-keys DIR           verification keys of a real ceremony: manifest.json pinning the
                               SHA-256 of valid_input_v2.vkey.json and valid_spend_v2.vkey.json
                               (and of valid_lock, valid_match_v2 and valid_join_split_v2 to
                               settle and join-split)
  --fresh-signer-work-bits N   leading zero bits a new signer's transaction digest must have
                               (0..${MAX_FRESH_SIGNER_WORK_BITS}, default ${DEFAULT_FRESH_SIGNER_WORK_BITS}: about 0.1-0.3 s of hashing per transaction
                               until one of its transactions landed; see docs/ledger.md)
`;

/** The flags of `nightjar ledger` (the command and `startLedger` parse the same ones). */
export const LEDGER_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'tls-port': { type: 'string' },
  'tls-host': { type: 'string' },
  'allow-host': { type: 'string' },
  'allow-origin': { type: 'string' },
  'data-dir': { type: 'string' },
  'slot-ms': { type: 'string' },
  'manual-clock': { type: 'boolean' },
  'no-dev': { type: 'boolean' },
  'genesis-admin': { type: 'string' },
  'fee-owner-commitment': { type: 'string' },
  'circuit-keys': { type: 'string' },
  'fresh-signer-work-bits': { type: 'string' },
} as const satisfies Options;

/** `--fresh-signer-work-bits`: 0..MAX_FRESH_SIGNER_WORK_BITS, the ledger's default when absent. */
function workBitsOption(value: string | undefined): number {
  if (value === undefined) return DEFAULT_FRESH_SIGNER_WORK_BITS;
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > MAX_FRESH_SIGNER_WORK_BITS)
    throw new UsageError(`--fresh-signer-work-bits must be 0..${MAX_FRESH_SIGNER_WORK_BITS}, got ${value}`);
  return n;
}

export interface RunningLedger {
  url: string;
  wsUrl: string;
  /** With --tls-port: the JSON-RPC URL over TLS, its event socket, and the pin of its certificate. */
  tls: { url: string; wsUrl: string; spkiSha256: string } | undefined;
  /** Dev mode: the file holding the dev secret. */
  devSecretFile: string | undefined;
  close(): Promise<void>;
}

/** Whether `host` is a loopback interface (the only place plain HTTP is served). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Where the plain and TLS listeners bind. Plain HTTP shows every read (and lets a man in the
 * middle forge answers), so it serves loopback only: a non-loopback --host is the TLS listener's.
 */
export function ledgerListeners(opts: {
  host?: string;
  port?: string;
  'tls-host'?: string;
  'tls-port'?: string;
}): { host: string; port: number; tls: { host: string; port: number } | undefined } {
  const port = portOption(opts.port, 8899);
  const host = opts.host ?? '127.0.0.1';
  if (opts['tls-port'] === undefined) {
    if (opts['tls-host'] !== undefined) throw new UsageError('--tls-host needs --tls-port');
    if (!isLoopbackHost(host))
      throw new UsageError(
        `--host ${host} would serve plain HTTP beyond this machine, showing every read to the network: ` +
          `serve it over TLS with --tls-port P (and --tls-host ${host}); plain HTTP stays on 127.0.0.1`,
      );
    return { host, port, tls: undefined };
  }
  const tlsPort = Number(opts['tls-port']);
  if (!/^[0-9]+$/.test(opts['tls-port']) || tlsPort > 65535)
    throw new UsageError(`--tls-port must be 0..65535, got ${opts['tls-port']}`);
  const tlsHost = opts['tls-host'] ?? host;
  return { host: isLoopbackHost(host) ? host : '127.0.0.1', port, tls: { host: tlsHost, port: tlsPort } };
}

/** Names the ledger's certificate is issued for: loopback, the TLS interface, the allowed hosts. */
function certificateHosts(tlsHost: string, allowedHosts: string[]): string[] {
  const wildcard = ['0.0.0.0', '::', '[::]'].includes(tlsHost);
  const names = ['localhost', '127.0.0.1', ...(wildcard ? [] : [tlsHost]), ...allowedHosts];
  // The certificate maker writes IPv4 addresses and DNS names; an IPv6 host is reached by pin.
  return [...new Set(names.filter((n) => !n.includes(':')))];
}

/** A comma-separated flag as a list (absent: none). */
function listOption(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The production genesis authority from flags, else the environment; refused in dev mode. */
function genesisAuthority(
  dev: boolean,
  opts: { 'genesis-admin'?: string; 'fee-owner-commitment'?: string },
): GenesisAuthority | undefined {
  const admin = opts['genesis-admin'] ?? process.env.NIGHTJAR_GENESIS_ADMIN;
  const feeOwner = opts['fee-owner-commitment'] ?? process.env.NIGHTJAR_FEE_OWNER_COMMITMENT;
  if (dev) {
    if (opts['genesis-admin'] !== undefined || opts['fee-owner-commitment'] !== undefined)
      throw new UsageError('--genesis-admin and --fee-owner-commitment configure a --no-dev ledger');
    return undefined;
  }
  if (admin === undefined || feeOwner === undefined)
    throw new UsageError(
      '--no-dev needs its genesis authority: --genesis-admin KEY and --fee-owner-commitment HEX ' +
        '(or NIGHTJAR_GENESIS_ADMIN and NIGHTJAR_FEE_OWNER_COMMITMENT)',
    );
  try {
    return parseGenesisAuthority({ admin, fee_owner_commitment: feeOwner });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export async function startLedger(argv: string[]): Promise<RunningLedger> {
  const opts = parseOptions(argv, LEDGER_OPTIONS);
  const listeners = ledgerListeners(opts);
  const dataDir = resolve(opts['data-dir'] ?? '.nightjar/ledger');
  const dev = !opts['no-dev'];
  if (!dev && opts['manual-clock'])
    throw new UsageError('--manual-clock needs dev mode (dev_advanceSlots is refused with --no-dev)');
  const genesis = genesisAuthority(dev, opts);
  const circuitKeys = await loadCircuitKeys({ dir: opts['circuit-keys'], allowDevOnly: dev });
  const verifier = await createGroth16Verifier(circuitKeys.keys);
  const ledger = Ledger.open({
    dataDir,
    dev,
    ...(genesis ? { genesis } : {}),
    verifier,
    freshSignerWorkBits: workBitsOption(opts['fresh-signer-work-bits']),
    clock: {
      mode: opts['manual-clock'] ? 'manual' : 'auto',
      slotMs: positiveIntOption('slot-ms', opts['slot-ms'], 400),
    },
  });
  if (dev) await ensureDevGenesis(ledger, loadOrCreateDevKeys(dataDir));
  else if (ledger.isInitialized && (await ledger.getVault()).admin !== genesis?.admin) {
    await ledger.close();
    throw new Error(`the vault in ${dataDir} has another admin than --genesis-admin; refusing to serve it`);
  }
  const allowedHosts = listOption(opts['allow-host']);
  let server;
  try {
    const identity = listeners.tls
      ? await loadOrCreateLedgerIdentity(dataDir, certificateHosts(listeners.tls.host, allowedHosts))
      : undefined;
    server = await serveLedger(ledger, {
      host: listeners.host,
      port: listeners.port,
      ...(listeners.tls && identity
        ? { tls: { ...listeners.tls, keyPem: identity.keyPem, certPem: identity.certPem } }
        : {}),
      allowedHosts,
      allowedOrigins: listOption(opts['allow-origin']),
    });
  } catch (err) {
    await ledger.close();
    throw err;
  }
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    tls:
      server.tlsUrl && server.tlsWsUrl && server.tlsSpkiSha256
        ? {
            url: tlsUrlFor(server.tlsUrl, listeners.tls!.host),
            wsUrl: tlsUrlFor(server.tlsWsUrl, listeners.tls!.host),
            spkiSha256: server.tlsSpkiSha256,
          }
        : undefined,
    devSecretFile: dev ? join(dataDir, DEV_SECRET_FILE) : undefined,
    async close() {
      await server.close();
      await ledger.close();
    },
  };
}

/** The TLS URL as a client writes it: the bound interface's name, unless it is a wildcard. */
function tlsUrlFor(url: string, host: string): string {
  if (['0.0.0.0', '::', '[::]'].includes(host)) return url;
  const u = new URL(url);
  u.hostname = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return u.toString();
}
