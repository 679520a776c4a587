/** Opens the SDK client and the wallet from ready.json and the config directory. */
import { existsSync, readFileSync } from 'node:fs';
import { createSecretFile } from '@nightjar/protocol';
import {
  createAccount,
  createClient,
  createTransport,
  createWallet,
  NightjarError,
  NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
  type Client,
  type FreshNoteHoldOptions,
  type SignerSetSource,
  type Transport,
  type Wallet,
} from '@nightjar/sdk';
import { RPC_ERRORS, RpcError, RpcLedgerClient } from '@nightjar/ledger';
import {
  credentialsFile,
  ledgerConnection,
  notLoggedIn,
  readReady,
  savedCredentials,
  stateDir,
  walletFile,
  walletPassword,
  type Paths,
  type Ready,
} from './config.js';
import { CliError, EXIT } from './exit-codes.js';
import type { Credentials } from '@nightjar/sdk';

export function pinnedRoot(ready: Ready): Uint8Array {
  if (!ready.platform_root)
    throw new CliError('ready.json names no platform root: this venue needs a pinned root', EXIT.unreachable);
  return new Uint8Array(readFileSync(ready.platform_root));
}

export function openWallet(paths: Paths): Wallet {
  const path = walletFile(paths);
  if (!existsSync(path))
    throw new CliError(`no wallet at ${path}: run \`nightjar wallet init\``, EXIT.wallet);
  return createWallet({ path, password: walletPassword(paths, false) });
}

export interface ConnectOptions {
  wallet?: Wallet;
  credentials?: Credentials;
  /** `--fresh-note-hold`: the SDK's random hold on new deposit notes. */
  freshNoteHold?: FreshNoteHoldOptions;
}

/** The venue and its ledger as ready.json names them, and what verifies them: a client's options. */
export function venueOptions(ready: Ready) {
  const ledger = ledgerConnection(ready);
  return {
    baseUrl: ready.base_url,
    pinnedRoot: pinnedRoot(ready),
    composeHash: ready.compose_hash,
    ledgerUrl: ledger.url,
    ...(ledger.tls ? { ledgerTls: ledger.tls } : {}),
    ...(ready.ledger_dev_secret ? { ledgerDevSecret: ready.ledger_dev_secret } : {}),
  };
}

/**
 * The CLI's trading account: the saved one (`nightjar login`); else, on a dev venue, its own `cli`
 * account, made once with the dev admin of ready.json and saved (0600, in the 0700 config
 * directory). The CLI never trades as the admin, so its orders are its own, not the app's or the
 * demo traders'.
 */
export async function cliCredentials(paths: Paths, ready: Ready): Promise<Credentials> {
  const saved = savedCredentials(paths);
  if (saved) return saved;
  if (!ready.admin) throw notLoggedIn();
  const admin = await createClient({
    ...venueOptions(ready),
    credentials: ready.admin,
    backoff: { attempts: 3 },
  });
  let created: Credentials;
  try {
    const made = await createAccount(admin, { label: 'cli' });
    created = { api_key: made.api_key, api_secret: made.api_secret, passphrase: made.passphrase };
  } finally {
    await admin.close();
  }
  // Two first commands at once: the account saved first is the CLI's (the other stays unused).
  if (createSecretFile(credentialsFile(paths), JSON.stringify(created) + '\n')) return created;
  return savedCredentials(paths) ?? created;
}

/** A verified, logged-in client. */
export async function connect(paths: Paths, opts: ConnectOptions = {}): Promise<Client> {
  const ready = readReady(paths);
  return createClient({
    ...venueOptions(ready),
    credentials: opts.credentials ?? (await cliCredentials(paths, ready)),
    ...(opts.wallet ? { wallet: opts.wallet } : {}),
    ...(opts.freshNoteHold ? { freshNoteHold: opts.freshNoteHold } : {}),
    stateDir: stateDir(paths),
    backoff: { attempts: 3 },
  });
}

/**
 * The ledger a transport reads the finalized signer set from (check (d)), as ready.json names it.
 * An unreachable ledger (or one whose certificate is not the pinned one) is the SDK's
 * LEDGER_UNAVAILABLE, which the CLI reports as unreachable, as createClient's ledger does.
 */
export function signerSetLedger(ready: Ready): { source: SignerSetSource; close(): Promise<void> } {
  const { url, tls } = ledgerConnection(ready);
  const ledger = new RpcLedgerClient(url, tls ? { tls } : {});
  return {
    source: {
      getVault: (params) =>
        ledger.getVault(params).catch((err: unknown) => {
          if (err instanceof RpcError && err.code === RPC_ERRORS.nodeUnavailable)
            throw new NightjarError(
              NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
              { method: 'getVault', url, rpcCode: err.code, detail: err.message },
              { cause: err },
            );
          throw err;
        }),
    },
    close: () => ledger.close(),
  };
}

/** A verified transport without credentials (public routes). */
export function connectPublic(paths: Paths): {
  baseUrl: string;
  transport: Transport;
  close(): Promise<void>;
} {
  const ready = readReady(paths);
  const ledger = signerSetLedger(ready);
  const transport = createTransport({
    url: ready.base_url,
    rootCaDer: pinnedRoot(ready),
    composeHash: ready.compose_hash,
    ledger: ledger.source,
  });
  return {
    baseUrl: ready.base_url,
    transport,
    async close() {
      transport.close();
      await ledger.close();
    },
  };
}

/** Runs `work` with a client and always closes it. */
export async function withClient<T>(
  paths: Paths,
  opts: ConnectOptions,
  work: (c: Client) => Promise<T>,
): Promise<T> {
  const client = await connect(paths, opts);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}
