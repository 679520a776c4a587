import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainInfo, readDevSecret, RpcError, RpcLedgerClient, signTransaction } from '@nightjar/ledger';
import { addressToBase58, ed25519PublicKey } from '@nightjar/protocol';
import { BIN } from '@nightjar/testkit/process';
import { readAuthorityKey } from '../src/authority-key.js';
import { newAuthority, writeCeremonyKeys } from './production-config.js';
import { afterEach, describe, expect, it } from 'vitest';

function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = out.match(re);
        if (m) resolve(m);
      };
      child.stdout.on('data', check);
      child.on('exit', () => reject(new Error(`exited before printing ${re}: ${err}`)));
      check();
    });
  return { child, exited, line, output: () => out, errors: () => err };
}

describe('nightjar ledger', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('prints its URL when ready, serves JSON-RPC, and shuts down cleanly on SIGINT keeping its state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-cli-'));
    dirs.push(dir);
    const first = run(['ledger', '--port', '0', '--data-dir', dir, '--manual-clock']);
    const [, url] = await first.line(/ready at (http:\/\/\S+)/);
    // Dev methods need the secret the ledger keeps in its data directory (and names when ready).
    const [, secretFile] = await first.line(/dev secret in (\S+)/);
    expect(secretFile).toBe(join(dir, 'dev-secret'));
    expect(statSync(secretFile!).mode & 0o777).toBe(0o600);
    await expect(new RpcLedgerClient(url!).advanceSlots({ slots: 1 })).rejects.toMatchObject({
      code: -32006,
    });
    const client = new RpcLedgerClient(url!, { devSecret: readDevSecret(secretFile!) });
    expect((await client.getMarkets()).map((m) => m.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
    await client.advanceSlots({ slots: 7 });
    await client.close();
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    const second = run(['ledger', '--port', '0', '--data-dir', dir, '--manual-clock']);
    const [, url2] = await second.line(/ready at (http:\/\/\S+)/);
    const again = new RpcLedgerClient(url2!);
    expect(await again.getSlot()).toBe(7);
    await again.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('--no-dev: only the configured genesis authority initializes the vault; dev methods are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-cli-'));
    dirs.push(dir);
    const authority = newAuthority();
    const keys = writeCeremonyKeys(dir);
    const ledger = run([
      'ledger',
      '--no-dev',
      '--port',
      '0',
      '--data-dir',
      join(dir, 'ledger'),
      '--genesis-admin',
      authority.admin,
      '--fee-owner-commitment',
      authority.feeOwnerCommitment,
      '--circuit-keys',
      keys,
    ]);
    const [, url] = await ledger.line(/ready at (http:\/\/\S+)/);
    const client = new RpcLedgerClient(url!);
    try {
      // Signed for this ledger's chain; every signer here is fresh (no landed successful transaction), so each carries the work.
      const chain = await chainInfo(client);
      const initialize = (seed: Uint8Array) => ({
        transaction: signTransaction(
          seed,
          1n,
          {
            name: 'initialize',
            args: { fee_owner_commitment: authority.feeOwnerCommitment, num_trees: 1 },
          },
          chain,
          { fresh: true },
        ),
      });
      // A stranger reaching the fresh ledger first does not become admin.
      const stranger = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
      const refused = await client.sendTransaction(initialize(stranger));
      const record = await client.getTransaction(refused);
      expect(record?.err?.code).toBe('Unauthorized');
      await expect(client.getVault()).rejects.toThrow(/not initialized/);

      // The authority cannot set another fee owner than the configured one either.
      const wrongFee = signTransaction(
        authority.seed,
        1n,
        { name: 'initialize', args: { fee_owner_commitment: '00'.repeat(32), num_trees: 1 } },
        chain,
        { fresh: true },
      );
      await client.sendTransaction({ transaction: wrongFee });
      expect((await client.getTransaction(wrongFee))?.err?.code).toBe('InvalidArgs');

      const accepted = signTransaction(
        authority.seed,
        BigInt(wrongFee.nonce) + 1n,
        initialize(authority.seed).transaction.instruction,
        chain,
        { fresh: true },
      );
      await client.sendTransaction({ transaction: accepted });
      expect((await client.getTransaction(accepted))?.err).toBeNull();
      const vault = await client.getVault();
      expect(vault.admin).toBe(authority.admin);
      expect(vault.admin).not.toBe(addressToBase58(ed25519PublicKey(stranger)));
      expect(vault.fee_owner_commitment).toBe(authority.feeOwnerCommitment);

      // No faucet, no fault injection, no clock control.
      const notAllowed = async (p: Promise<unknown>) => {
        const err = await p.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(RpcError);
        expect((err as RpcError).code).toBe(-32006);
      };
      await notAllowed(client.requestAirdrop({ owner: authority.admin, mint: authority.admin, amount: '1' }));
      await notAllowed(client.setFaults({ outage: true }));
      await notAllowed(client.advanceSlots({ slots: 1 }));
      expect(await client.getSlot()).toBeGreaterThanOrEqual(0);
    } finally {
      await client.close();
      ledger.child.kill('SIGTERM');
      expect(await ledger.exited).toBe(0);
    }
    // The same data directory under another configured authority is refused.
    const other = newAuthority();
    const reopened = run([
      'ledger',
      '--no-dev',
      '--port',
      '0',
      '--data-dir',
      join(dir, 'ledger'),
      '--genesis-admin',
      other.admin,
      '--fee-owner-commitment',
      other.feeOwnerCommitment,
      '--circuit-keys',
      keys,
    ]);
    expect(await reopened.exited).not.toBe(0);
    expect(reopened.errors()).toContain('another admin');
  }, 60_000);

  it('--no-dev refuses to start without a genesis authority, or with the dev-ceremony circuit keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-cli-'));
    dirs.push(dir);
    const authority = newAuthority();
    const env = {
      ...process.env,
      NIGHTJAR_GENESIS_ADMIN: undefined,
      NIGHTJAR_FEE_OWNER_COMMITMENT: undefined,
    };
    const bare = run(['ledger', '--no-dev', '--port', '0', '--data-dir', join(dir, 'a')], env);
    expect(await bare.exited).toBe(2);
    expect(bare.errors()).toContain('--genesis-admin');

    // The authority from the environment; the keys are the committed dev ones.
    const devKeys = run(['ledger', '--no-dev', '--port', '0', '--data-dir', join(dir, 'b')], {
      ...env,
      NIGHTJAR_GENESIS_ADMIN: authority.admin,
      NIGHTJAR_FEE_OWNER_COMMITMENT: authority.feeOwnerCommitment,
    });
    expect(await devKeys.exited).toBe(2);
    expect(devKeys.errors()).toMatch(/DEV-ONLY ceremony.*--circuit-keys DIR/s);
    expect(devKeys.output()).not.toContain('ready at');
  }, 60_000);

  it('authority-key creates a 0600 authority key (never overwritten) and prints its public side', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-cli-'));
    dirs.push(dir);
    const file = join(dir, 'authority.json');
    const created = run(['authority-key', '--out', file, '--json']);
    expect(await created.exited).toBe(0);
    const printed = JSON.parse(created.output()) as { admin: string; fee_owner_commitment: string };
    const loaded = readAuthorityKey(file);
    expect(loaded.genesis).toEqual({
      admin: printed.admin,
      fee_owner_commitment: printed.fee_owner_commitment,
    });
    for (const f of [file, `${file}.fee-owner`]) expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(`${file}.fee-owner`, 'utf8')).fee_spending_key).toMatch(/^[0-9a-f]{64}$/);
    const again = run(['authority-key', '--out', file]);
    expect(await again.exited).toBe(2);
    expect(readAuthorityKey(file).genesis.admin).toBe(printed.admin);
  }, 30_000);

  it('refuses bad options with usage and exit code 2', async () => {
    const r = run(['ledger', '--port', 'x']);
    expect(await r.exited).toBe(2);
    expect(r.errors()).toContain('--port must be 0..65535');
  }, 30_000);

  it('refuses plain HTTP on a non-loopback --host; with --tls-port it serves TLS there (pinned) and plain HTTP on loopback', async () => {
    const refused = run(['ledger', '--host', '0.0.0.0', '--port', '0']);
    expect(await refused.exited).toBe(2);
    expect(refused.errors()).toMatch(/--tls-port P \(and --tls-host 0\.0\.0\.0\)/);

    const dir = mkdtempSync(join(tmpdir(), 'nightjar-cli-'));
    dirs.push(dir);
    const served = run(['ledger', '--host', '0.0.0.0', '--port', '0', '--tls-port', '0', '--data-dir', dir]);
    const [, plainUrl] = await served.line(/ready at (http:\/\/\S+)/);
    const [, tlsUrl, pin] = await served.line(/over TLS at (https:\/\/\S+) .*SPKI SHA-256 ([0-9a-f]{64})/);
    try {
      expect(new URL(plainUrl!).hostname).toBe('127.0.0.1');
      expect(statSync(join(dir, 'tls-identity.pem')).mode & 0o777).toBe(0o600);
      const client = new RpcLedgerClient(tlsUrl!, { tls: { spkiSha256: pin! } });
      expect((await client.getMarkets()).map((m) => m.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
      await client.close();
    } finally {
      served.child.kill('SIGTERM');
      expect(await served.exited).toBe(0);
    }
  }, 60_000);
});
