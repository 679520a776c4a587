/**
 * A split killed mid-way loses nothing and spends nothing twice (issue 19): a real child process
 * (split-child.ts) splits a 100 USDC note into four and is SIGKILLed either before it sends or
 * right after the ledger accepted the join_split but before its wallet heard back. The wallet
 * file, synced from the ledger afterwards, must hold exactly 100 USDC: the original note when
 * nothing was sent, else the four outputs (found from the note memo) with the original spent.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  killAll,
  nightjarJson as json,
  FAST_SLOTS,
  startVenueProcess,
  track,
} from '@nightjar/testkit/process';

const CHILD = fileURLToPath(new URL('./split-child.ts', import.meta.url));

/** Starts the split child and SIGKILLs it as soon as it reports reaching `point`. */
function killSplitAt(point: 'proving' | 'sent', env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=nightjar-source', '--import', 'tsx', CHILD], {
      env: { ...process.env, ...env, STOP_AT: point },
    });
    track(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes(`AT ${point}`)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve(out) : reject(new Error(`split child exited ${code}: ${out}\n${err}`)),
    );
  });
}

interface NoteRow {
  commitment: string;
  asset: string;
  amount: string;
  state: string;
}

describe('a split killed mid-way (SIGKILL) loses nothing and spends nothing twice', () => {
  let dir: string;
  /** The two tests' wallets, each with one final 100 USDC note. */
  let beforeSend: Record<string, string>;
  let afterSend: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nightjar-split-crash-'));
    await startVenueProcess(dir, FAST_SLOTS);
    // Funded side by side: one wait for a note to be final instead of two in a row.
    [beforeSend, afterSend] = await Promise.all([walletWith100('before-send'), walletWith100('after-send')]);
  }, 180_000);

  afterAll(() => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A wallet with one final 100 USDC note. */
  async function walletWith100(name: string): Promise<Record<string, string>> {
    const env = {
      NIGHTJAR_DATA_DIR: dir,
      NIGHTJAR_HOME: join(dir, name),
      NIGHTJAR_WALLET_PASSWORD: `pw ${name}`,
    };
    await json(['wallet', 'init'], env);
    await json(['wallet', 'deposit', '--asset', 'USDC', '--amount', '100', '--faucet'], env);
    return env;
  }

  const usdcNotes = async (env: Record<string, string>) =>
    (await json<NoteRow[]>(['wallet', 'notes', '--all'], env)).filter((n) => n.asset === 'USDC');
  const total = (notes: NoteRow[]) => notes.reduce((s, n) => s + Number(n.amount), 0);

  it('killed while proving: nothing was sent, the 100 USDC note is still free', async () => {
    const env = beforeSend;
    const [before] = await usdcNotes(env);
    await killSplitAt('proving', env);
    const notes = await usdcNotes(env);
    expect(notes).toEqual([{ ...before!, state: 'free' }]);
    expect(total(notes.filter((n) => n.state === 'free'))).toBe(100);
  }, 180_000);

  it('killed after the ledger took the split: the sync finds the four outputs and the original spent', async () => {
    const env = afterSend;
    const [before] = await usdcNotes(env);
    await killSplitAt('sent', env);
    const notes = await usdcNotes(env);
    const free = notes.filter((n) => n.state === 'free');
    // The original is spent exactly once (the ledger's word), and its value is in the outputs.
    expect(notes.find((n) => n.commitment === before!.commitment)?.state).toBe('spent');
    expect(free.map((n) => n.amount)).toEqual(['25', '25', '25', '25']);
    expect(total(free)).toBe(100);
    // The vault still holds exactly what the notes are worth.
    const balances = await json<{ asset: string; available: string }[]>(['wallet', 'balances'], env);
    expect(balances.find((b) => b.asset === 'USDC')?.available).toBe('100');
  }, 180_000);
});
