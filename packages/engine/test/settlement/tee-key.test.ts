/**
 * Issue 16 item 7 (engine half): on dstack the settlement key comes from the guest agent's key API
 * at every boot and is never written to disk; and when the engine registers its key, the signer
 * set becomes exactly that key, so keys an earlier boot retired can no longer sign for the vault.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addressToBase58, ed25519PublicKey, UnsafePathError } from '@nightjar/protocol';
import { COMMITMENT_LAG, ensureDevGenesis, Ledger, loadOrCreateDevKeys, runAsAdmin } from '@nightjar/ledger';
import { DstackPlatform, SimulatedPlatform, startEngine, type RunningEngine } from '../../src/index.js';
import { JOURNAL_FILE, JournalDamagedError, SettlementJournal } from '../../src/settlement/journal.js';
import {
  loadOrCreateTeeKey,
  TEE_KEY_ADDRESS_FILE,
  TEE_KEY_FILE,
  TEE_KEY_PATH,
} from '../../src/settlement/tee-key.js';
import { TOKEN_KEY_FILE, TOKEN_KEY_PATH } from '../../src/accounts/token-key.js';
import { startFakeDstackAgent } from '@nightjar/testkit/fixtures';
import { devCircuitKeys, FAST_ARGON2, stubVerifyInputProof } from '@nightjar/testkit';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'nightjar-tee-key-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A dev ledger whose admin the test holds, and a `registerTeeKeys` that records each call. */
async function devLedger() {
  const ledger = Ledger.open({ clock: { mode: 'manual' }, verifier: { verify: async () => true } });
  const devKeys = loadOrCreateDevKeys(undefined);
  await ensureDevGenesis(ledger, devKeys);
  const setKeys = (keys: string[]) =>
    runAsAdmin(ledger, devKeys.adminSeed, [{ name: 'set_tee_keys', args: { keys } }]);
  const registered: string[][] = [];
  const registerTeeKeys = async (keys: string[]) => {
    registered.push(keys);
    await setKeys(keys);
  };
  const signerSet = async () => (await ledger.getVault({ commitment: 'processed' })).tee_keys;
  return { ledger, setKeys, registerTeeKeys, registered, signerSet };
}

async function boot(
  l: Awaited<ReturnType<typeof devLedger>>,
  options: { dataDir: string; platform?: DstackPlatform },
): Promise<RunningEngine> {
  return startEngine({
    ledger: l.ledger,
    circuitKeys: await devCircuitKeys(),
    port: 0,
    dev: true,
    hasher: FAST_ARGON2,
    verifyInputProof: stubVerifyInputProof,
    dataDir: options.dataDir,
    registerTeeKeys: l.registerTeeKeys,
    ...(options.platform ? { attestation: { platform: options.platform } } : {}),
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const randomAddress = () => addressToBase58(ed25519PublicKey(Uint8Array.from(randomBytes(32))));

describe('the settlement key on dstack (fake guest agent)', () => {
  it('is derived through the key API: the same key on two boots, and no file holds it', async () => {
    const agentDir = tempDir();
    const socket = join(agentDir, 'dstack.sock');
    const td = await SimulatedPlatform.open({ dir: undefined, composeHash: 'cd'.repeat(32) });
    const agent = await startFakeDstackAgent(socket, td);
    const l = await devLedger();
    const dataDir = tempDir();
    try {
      const first = await boot(l, { dataDir, platform: await DstackPlatform.open({ endpoint: socket }) });
      await first.close();
      expect(l.registered).toHaveLength(1);
      const [address] = l.registered[0]!;
      expect(await l.signerSet()).toEqual([address]);

      // The second boot derives the same key: the signer set already is exactly it.
      const second = await boot(l, { dataDir, platform: await DstackPlatform.open({ endpoint: socket }) });
      await second.close();
      expect(l.registered).toHaveLength(1);
      expect(await l.signerSet()).toEqual([address]);

      // It is the key the agent's key API gives for the fixed path and purpose, asked at each boot.
      const seed = await (await DstackPlatform.open({ endpoint: socket })).deriveKeySeed(TEE_KEY_PATH);
      expect(addressToBase58(ed25519PublicKey(seed))).toBe(address);
      const teeKeyRequests = agent.keyRequests.filter((r) => r.path === `nightjar/${TEE_KEY_PATH}`);
      expect(teeKeyRequests.slice(0, 2)).toEqual([
        { path: `nightjar/${TEE_KEY_PATH}`, purpose: 'nightjar/ed25519-seed' },
        { path: `nightjar/${TEE_KEY_PATH}`, purpose: 'nightjar/ed25519-seed' },
      ]);
      // The bearer-token key comes from the key API too (at each boot), and no file holds it.
      expect(agent.keyRequests.filter((r) => r.path === `nightjar/${TOKEN_KEY_PATH}`)).toHaveLength(2);
      expect(existsSync(join(dataDir, TOKEN_KEY_FILE))).toBe(false);

      // Nothing in the data directory holds the seed, in any encoding.
      const files = filesUnder(dataDir);
      expect(files.map((f) => f.slice(dataDir.length + 1))).not.toContain(TEE_KEY_FILE);
      const secret = Buffer.from(seed);
      for (const f of files) {
        const bytes = readFileSync(f);
        expect([f, bytes.includes(secret) || bytes.includes(secret.toString('hex'))]).toEqual([f, false]);
      }
      // Only the public address marks that a journal was made: a boot that finds it gone refuses.
      expect(readFileSync(join(dataDir, TEE_KEY_ADDRESS_FILE), 'utf8')).toBe(`${address}\n`);
      rmSync(join(dataDir, JOURNAL_FILE));
      const lost = await boot(l, { dataDir, platform: await DstackPlatform.open({ endpoint: socket }) }).then(
        (e) => e.close().then(() => undefined),
        (err: unknown) => err,
      );
      expect(lost).toBeInstanceOf(JournalDamagedError);
    } finally {
      await l.ledger.close();
      await agent.close();
    }
  });
});

describe('registering the settlement key', () => {
  it('makes the signer set exactly this key, dropping a key an earlier boot retired', async () => {
    const l = await devLedger();
    const retired = randomAddress();
    await l.setKeys([retired]);
    await l.ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    try {
      const engine = await boot(l, { dataDir: tempDir() });
      await engine.close();
      expect(l.registered).toHaveLength(1);
      expect(await l.signerSet()).toEqual(l.registered[0]);
      expect(await l.signerSet()).not.toContain(retired);
    } finally {
      await l.ledger.close();
    }
  });

  it('drops retired keys even when this key is already in the set', async () => {
    const l = await devLedger();
    const dataDir = tempDir();
    // A key (and its journal) from an earlier boot, registered beside a key since retired.
    const key = loadOrCreateTeeKey(dataDir);
    new SettlementJournal(dataDir, false).close();
    const retired = randomAddress();
    await l.setKeys([retired, key.address]);
    await l.ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    try {
      const engine = await boot(l, { dataDir });
      await engine.close();
      expect(await l.signerSet()).toEqual([key.address]);
    } finally {
      await l.ledger.close();
    }
  });
});

describe.runIf(process.getuid?.() === 0)('a settlement key another user planted (issue 28 item 3)', () => {
  it('is refused, never registered: the start fails naming the file', async () => {
    const l = await devLedger();
    const dataDir = tempDir();
    // The journal a key implies, and a key file another uid wrote (root may give files away).
    new SettlementJournal(dataDir, false).close();
    const planted = join(dataDir, TEE_KEY_FILE);
    writeFileSync(planted, JSON.stringify({ seed: randomBytes(32).toString('hex') }) + '\n', { mode: 0o600 });
    chownSync(planted, 65534, 65534);
    try {
      const err = await boot(l, { dataDir }).then(
        (e) => e.close().then(() => undefined),
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UnsafePathError);
      expect((err as Error).message).toContain(planted);
      expect(l.registered).toEqual([]);
    } finally {
      await l.ledger.close();
    }
  });

  it('a data directory others may write to is refused before anything is read from it', async () => {
    const l = await devLedger();
    const dataDir = join(tempDir(), 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o777);
    try {
      await expect(boot(l, { dataDir })).rejects.toThrow(`chmod 700 ${dataDir}`);
      expect(l.registered).toEqual([]);
    } finally {
      await l.ledger.close();
    }
  });
});
