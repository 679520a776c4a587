/**
 * `nightjar start`: the venue on one machine. Starts the ledger as its own JSON-RPC server on a
 * local port (unless `--ledger URL` names one), then the engine talking to it over JSON-RPC, with
 * the demo markets and a dev admin; writes `<data-dir>/ready.json` once both answer. Ctrl-C or
 * SIGTERM shuts both down and removes ready.json.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadVerificationKey } from '@nightjar/circuits';
import { DstackPlatform, startEngine } from '@nightjar/engine';
import {
  createGroth16Verifier,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  RpcLedgerClient,
  runAsAdmin,
  serveLedger,
} from '@nightjar/ledger';
import { parseOptions, portOption, positiveIntOption, UsageError } from '../args.js';

export const START_USAGE = `nightjar start [--data-dir D] [--port P] [--ledger URL] [--token-ttl SECONDS] [--slot-ms N]
               [--platform simulated|dstack]

  --data-dir D         state of the ledger and the engine (default ./.nightjar)
  --port P             HTTPS port of the engine (default 8443; 0 picks a free one)
  --ledger URL         use a running ledger instead of starting one
  --token-ttl SECONDS  bearer token lifetime, 1..3600 (default 3600)
  --slot-ms N          slot length of the started ledger (default 400)
  --platform KIND      attestation platform: simulated (default; its PKI under D/engine/attestation)
                       or dstack (a real CVM's guest agent at /var/run/dstack.sock)
`;

interface Credentials {
  api_key: string;
  api_secret: string;
  passphrase: string;
}

export interface RunningVenue {
  readyFile: string;
  ready: {
    base_url: string;
    ledger_url: string;
    boot_session_id: string;
    compose_hash: string;
    /** Path of the simulated platform's root CA certificate (DER); absent on dstack. */
    platform_root?: string;
    admin: Credentials;
  };
  close(): Promise<void>;
}

export async function startVenue(argv: string[]): Promise<RunningVenue> {
  const opts = parseOptions(argv, {
    'data-dir': { type: 'string' },
    port: { type: 'string' },
    ledger: { type: 'string' },
    'token-ttl': { type: 'string' },
    'slot-ms': { type: 'string' },
    platform: { type: 'string' },
  });
  const platformKind = opts.platform ?? 'simulated';
  if (platformKind !== 'simulated' && platformKind !== 'dstack')
    throw new UsageError('--platform must be simulated or dstack');
  const dataDir = resolve(opts['data-dir'] ?? '.nightjar');
  const tokenTtlSeconds = positiveIntOption('token-ttl', opts['token-ttl'], 3600);
  if (tokenTtlSeconds > 3600) throw new UsageError('--token-ttl must be at most 3600');
  mkdirSync(dataDir, { recursive: true });
  const readyFile = join(dataDir, 'ready.json');
  rmSync(readyFile, { force: true });

  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
    rmSync(readyFile, { force: true });
  };
  try {
    let ledgerUrl = opts.ledger;
    // Dev mode: the started ledger's admin registers the engine's settlement key at first boot.
    let registerTeeKeys: ((keys: string[]) => Promise<void>) | undefined;
    if (ledgerUrl === undefined) {
      const ledgerDir = join(dataDir, 'ledger');
      const verifier = await createGroth16Verifier({
        valid_input: await loadVerificationKey('valid_input'),
        valid_spend: await loadVerificationKey('valid_spend'),
      });
      const ledger = Ledger.open({
        dataDir: ledgerDir,
        dev: true,
        verifier,
        clock: { mode: 'auto', slotMs: positiveIntOption('slot-ms', opts['slot-ms'], 400) },
      });
      closers.push(() => ledger.close());
      const devKeys = loadOrCreateDevKeys(ledgerDir);
      await ensureDevGenesis(ledger, devKeys);
      registerTeeKeys = (keys) =>
        runAsAdmin(ledger, devKeys.adminSeed, [{ name: 'set_tee_keys', args: { keys } }]);
      const server = await serveLedger(ledger, { port: 0 });
      closers.push(() => server.close());
      ledgerUrl = server.url;
    }
    const client = new RpcLedgerClient(ledgerUrl);
    closers.push(() => client.close());
    await client.connectEvents();

    const engineDir = join(dataDir, 'engine');
    const engine = await startEngine({
      ledger: client,
      dataDir: engineDir,
      port: portOption(opts.port, 8443),
      dev: true,
      tokenTtlSeconds,
      validInputKey: await loadVerificationKey('valid_input'),
      logger: { level: 'warn' },
      ...(platformKind === 'dstack' ? { attestation: { platform: await DstackPlatform.open() } } : {}),
      // With --ledger URL there is no admin here: the engine logs that the operator must register its key.
      ...(registerTeeKeys ? { registerTeeKeys } : {}),
    });
    closers.push(() => engine.close());
    // The certificate is public and new each boot; local tools pin it from here.
    writeFileSync(join(engineDir, 'tls-cert.pem'), engine.certificate.certPem);
    const admin = devAdminCredentials(engineDir, engine.devAdmin);

    const ready = {
      base_url: engine.url,
      ledger_url: ledgerUrl,
      boot_session_id: engine.bootSessionId,
      compose_hash: engine.attestation.identity.compose_hash,
      ...(engine.attestation.rootCa?.path ? { platform_root: engine.attestation.rootCa.path } : {}),
      admin,
    };
    writeFileSync(readyFile, JSON.stringify(ready, null, 2) + '\n', { mode: 0o600 });
    return { readyFile, ready, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** Dev mode only: the dev admin's credentials, kept (0600) so every boot's ready.json can carry them. */
function devAdminCredentials(engineDir: string, created: Credentials | undefined): Credentials {
  const file = join(engineDir, 'dev-admin-credentials.json');
  if (created) {
    const creds = {
      api_key: created.api_key,
      api_secret: created.api_secret,
      passphrase: created.passphrase,
    };
    writeFileSync(file, JSON.stringify(creds) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    return creds;
  }
  if (!existsSync(file))
    throw new Error(`the dev admin exists but ${file} is missing; remove ${engineDir} to start afresh`);
  return JSON.parse(readFileSync(file, 'utf8')) as Credentials;
}
