/**
 * `wallet split`, `wallet merge` and `wallet withdraw` of any amount, with the real binary against
 * a venue started here (real VALID_JOIN_SPLIT and VALID_SPEND proofs, checked by the ledger): one
 * deposit split into four notes, one of them split by amounts, the merge hint, a merge of the four
 * smallest, a withdrawal of an odd amount paid exactly to a fresh address in one transaction (the
 * rest a change note), the funding-address confirmation, and refusals with their exit codes and fixes.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcLedgerClient } from '@nightjar/ledger';
import { addressToBase58 } from '@nightjar/protocol';
import { parseUnits } from '@nightjar/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  killAll,
  nightjar,
  nightjarJson as json,
  FAST_SLOTS,
  startVenueProcess,
  stopVenueProcess,
} from '@nightjar/testkit/process';

interface NoteRow {
  commitment: string;
  amount: string;
  asset: string;
}

/** USDC (6 decimals) in atomic units. */
const usdc = (x: string) => parseUnits(x, 6);
const total = (notes: readonly NoteRow[]) => notes.reduce((s, n) => s + usdc(n.amount), 0n);

describe('nightjar wallet split, merge and withdraw against a started venue', () => {
  let dir: string;
  let venue: ChildProcess;
  let env: Record<string, string>;
  let ledger: RpcLedgerClient;
  let funding: string;
  let mint: string;
  let deposited: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nightjar-notes-'));
    venue = await startVenueProcess(dir, FAST_SLOTS);
    env = { NIGHTJAR_DATA_DIR: dir, NIGHTJAR_HOME: join(dir, 'home'), NIGHTJAR_WALLET_PASSWORD: 'notes' };
    const ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as { ledger_url: string };
    ledger = new RpcLedgerClient(ready.ledger_url);
  });

  afterAll(async () => {
    killAll();
    await ledger?.close();
    await stopVenueProcess(venue);
    rmSync(dir, { recursive: true, force: true });
  });

  it('--help describes split and merge; a split without --into or --amounts is a usage error', async () => {
    const nowhere = { NIGHTJAR_DATA_DIR: join(dir, 'nowhere') };
    const [split, merge, bad] = await Promise.all([
      nightjar(['wallet', 'split', '--help'], nowhere),
      nightjar(['wallet', 'merge', '--help'], nowhere),
      nightjar(['wallet', 'split', '--asset', 'USDC', '--json'], nowhere),
    ]);
    expect(split.code).toBe(0);
    expect(split.stdout).toContain('--amounts X,Y');
    expect(merge.code).toBe(0);
    expect(merge.stdout).toContain('--notes LIST');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { exit_code: 2 } });
    expect(bad.stderr).toContain('--into N and --amounts');
  });

  it('deposits, then splits the note into 4 equal notes', async () => {
    funding = (await json<{ funding_address: string }>(['wallet', 'init'], env)).funding_address;
    const dep = await json<{ commitment: string; mint: string }>(
      ['wallet', 'deposit', '--asset', 'USDC', '--amount', '1000', '--faucet'],
      env,
    );
    mint = dep.mint;
    deposited = dep.commitment;

    const split = await json<{ signature: string; spent: NoteRow[]; notes: NoteRow[] }>(
      ['wallet', 'split', '--asset', 'USDC', '--into', '4'],
      env,
    );
    expect(split.signature).toMatch(/^[0-9a-f]+$/);
    expect(split.spent.map((n) => n.commitment)).toEqual([deposited]);
    expect(split.notes).toHaveLength(4);
    expect(split.notes.every((n) => n.asset === 'USDC' && n.amount === '250')).toBe(true);
    expect(total(split.notes)).toBe(usdc('1000'));
  });

  it('splits by amounts (human output, stages on the progress line), then hints at a merge', async () => {
    const run = await nightjar(['wallet', 'split', '--asset', 'USDC', '--amounts', '100,0.5'], env);
    expect(run.code, run.stderr).toBe(0);
    // The smallest note covering 100.5 is one of the 250s: 100, 0.5 and the remainder 149.5.
    expect(run.stdout).toMatch(/^split note [0-9a-f]+ \(250 USDC\) into 3 notes \(tx [0-9a-f]+\):$/m);
    for (const amount of ['100', '0.5', '149.5'])
      expect(run.stdout).toMatch(new RegExp(`^  [0-9a-f]+  ${amount.replace('.', '\\.')} USDC$`, 'm'));
    for (const stage of [
      'proving (1 note into 3)',
      'sending to the ledger',
      'landed',
      'the new notes are usable',
    ])
      expect(run.stderr).toContain(`splitting a USDC note: ${stage}`);

    // Six free notes: the four smallest are what a merge takes.
    const notes = await nightjar(['wallet', 'notes'], env);
    expect(notes.code, notes.stderr).toBe(0);
    expect(notes.stderr).toContain(
      'hint: 4 small USDC notes; merge them with `nightjar wallet merge --asset USDC`',
    );
    expect(notes.stdout).not.toContain('hint');
  });

  it('merges the four smallest notes into one of their total', async () => {
    const merged = await json<{ spent: NoteRow[]; note: NoteRow }>(
      ['wallet', 'merge', '--asset', 'USDC'],
      env,
    );
    expect(merged.spent.map((n) => n.amount).sort()).toEqual(['0.5', '100', '149.5', '250']);
    expect(merged.note).toMatchObject({ amount: '500', asset: 'USDC' });
  });

  it('withdraws an odd amount exactly to --to in one transaction signed by a one-time key; the rest is a change note', async () => {
    const to = addressToBase58(new Uint8Array(randomBytes(32)));
    const fundingBefore = await ledger.getBalance({ owner: funding, mint });
    const out = await json<{
      amount: string;
      asset: string;
      recipient: string;
      signer: string;
      change?: NoteRow;
    }>(['wallet', 'withdraw', '--asset', 'USDC', '--amount', '123.456789', '--to', to], env);
    expect(out).toMatchObject({ amount: '123456789', asset: 'USDC', recipient: to });
    expect(await ledger.getBalance({ owner: to, mint })).toBe('123456789');
    expect(await ledger.getBalance({ owner: funding, mint })).toBe(fundingBefore);
    expect(out.signer).not.toBe(funding);

    // Paid from the smallest note covering it (250): the rest, 126.543211, is the change note.
    expect(out.change).toMatchObject({ amount: '126.543211', asset: 'USDC' });

    const run = await nightjar(['wallet', 'notes', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('hint'); // --json: hints are for humans
    const notes = JSON.parse(run.stdout) as (NoteRow & { state: string })[];
    expect(notes).toContainEqual(expect.objectContaining({ ...out.change, state: 'free' }));
    expect(total(notes)).toBe(usdc('1000') - 123_456_789n);
  });

  it('withdraw needs --to; to the funding address it says what that links and, without a terminal, refuses unless --yes', async () => {
    const noTo = await nightjar(['wallet', 'withdraw', '--asset', 'USDC', '--amount', '1'], env);
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain('wallet withdraw needs --to ADDRESS');

    const linked = await nightjar(
      ['wallet', 'withdraw', '--asset', 'USDC', '--amount', '1', '--to', funding, '--json'],
      env,
    );
    expect(linked.code).toBe(2);
    const err = (JSON.parse(linked.stdout) as { error: { message: string; code: string; exit_code: number } })
      .error;
    expect(err).toMatchObject({ code: 'LINKS_FUNDING_ADDRESS', exit_code: 2 });
    expect(err.message).toContain("is this wallet's funding address");
    expect(err.message).toContain('links this withdrawal (its amount and time) to those deposits');
    expect(err.message).toContain('pass --yes to accept the link, or --to a fresh address');

    const before = BigInt(await ledger.getBalance({ owner: funding, mint }));
    const yes = await nightjar(
      ['wallet', 'withdraw', '--asset', 'USDC', '--amount', '0.5', '--to', funding, '--yes'],
      env,
    );
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toContain('warning: ' + funding + " is this wallet's funding address");
    expect(BigInt(await ledger.getBalance({ owner: funding, mint })) - before).toBe(500_000n);
  });

  it('refuses with the exit code and the fix: more than the wallet has, nothing to merge, a spent note', async () => {
    // Free now: 1000 less the 123.456789 and the 0.5 withdrawn above.
    const tooMuch = await nightjar(
      ['wallet', 'split', '--asset', 'USDC', '--amounts', '5000', '--json'],
      env,
    );
    expect(tooMuch.code).toBe(5);
    const err = (JSON.parse(tooMuch.stdout) as { error: { message: string; exit_code: number } }).error;
    expect(err.exit_code).toBe(5);
    expect(err.message).toContain('no free USDC note holds 5000 USDC (free: 876.043211 USDC in 3 notes');
    expect(err.message).toContain(
      ': Deposit more USDC, or merge smaller notes. (4123.956789 USDC short: `nightjar wallet deposit --asset USDC --amount 4123.956789`)',
    );

    const nothing = await nightjar(['wallet', 'merge', '--asset', 'SOL', '--json'], env);
    expect(nothing.code).toBe(5);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ error: { exit_code: 5, code: 'NOTHING_TO_MERGE' } });
    expect(nothing.stderr).toContain(
      'nothing to merge (0 free SOL notes): Nothing to do: a merge needs at least 2 free notes. (`nightjar wallet notes`)',
    );

    const fresh = addressToBase58(new Uint8Array(randomBytes(32)));
    const spent = await nightjar(['wallet', 'withdraw', '--note', deposited, '--to', fresh], env);
    expect(spent.code).toBe(5);
    expect(spent.stderr).toContain(
      `note ${deposited} is already spent: Name another note: this one is spent.`,
    );
  });
});
