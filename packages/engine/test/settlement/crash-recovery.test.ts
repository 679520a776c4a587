/**
 * The engine as a real child process, SIGKILLed by its settlement pipeline right after it
 * journals each stage (and inside proving: before and after its proof), then restarted on the same data directory against the same ledger (which
 * lives in this process and outlives it). After recovery: no note is lost or spent twice (both
 * inputs of the match are spent, or neither), solvency holds, and each owner can observe the end
 * on the ledger (its memo and note status).
 */
import { describe, expect, it } from 'vitest';
import { decryptFillMemo } from '@nightjar/crypto';
import { bytesToHex, hexToBytes } from '@nightjar/protocol';
import { login, type Trader, HttpsClient } from '@nightjar/testkit';
import { startEngineProcess } from '@nightjar/testkit/process';
import { crashLedger, crashMidSettlement } from './crash-scenario.js';
import { nullifierOf } from './venue-helpers.js';

const lab = crashLedger();

type Class = 'recovery_released' | 'recovery_redriven' | 'recovery_already_settled';
const STAGES: { at: string; settled: boolean; cls: Class }[] = [
  { at: 'queued', settled: false, cls: 'recovery_released' },
  { at: 'locking_notes', settled: false, cls: 'recovery_released' },
  // Killed once the lock was sent, or while proving: the locks may land, but no proof was
  // journaled and none is made again after a restart, so nothing can settle; the match is
  // released (its locks expire) and nothing is consumed.
  { at: 'locking_notes:sent', settled: false, cls: 'recovery_released' },
  { at: 'proving', settled: false, cls: 'recovery_released' },
  // Killed once the proof was journaled: settled with it after the restart, not proven again.
  { at: 'proving:proved', settled: true, cls: 'recovery_redriven' },
  { at: 'verifying', settled: true, cls: 'recovery_redriven' },
  { at: 'settling', settled: true, cls: 'recovery_redriven' },
  { at: 'settling:sent', settled: true, cls: 'recovery_already_settled' },
  { at: 'closing', settled: true, cls: 'recovery_already_settled' },
];

describe('settlement survives SIGKILL at every stage', () => {
  for (const { at, settled, cls } of STAGES) {
    it(`killed at ${at}: recovered ${settled ? 'to confirmed' : 'with nothing consumed'}`, async () => {
      const { ledger, server } = lab;
      const dataDir = await lab.dataDir();

      const env = { LEDGER_URL: server.url, DATA_DIR: dataDir };
      const { alice, bob, usdc, sol, bid, ask, admin, memosBefore } = await crashMidSettlement(
        ledger,
        env,
        at,
      );

      // Restart on the same data directory; recovery reconciles against the ledger.
      const second = await startEngineProcess(env);
      const client2 = new HttpsClient(second.url, second.cert);
      const admin2 = await login(client2, admin);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body read field by field
      let metrics: Record<string, any> = {};
      for (let i = 0; i < 300; i++) {
        await ledger.advanceSlots({ slots: 1 });
        metrics = (await client2.send('/admin/metrics/settlement', { token: admin2 })).body;
        const c = metrics.counters ?? {};
        const recovered =
          c.recovery_already_settled + c.recovery_redriven + c.recovery_released + c.recovery_indeterminate;
        if (recovered >= 1 && metrics.in_flight_matches === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(metrics.in_flight_matches).toBe(0);
      expect(metrics.counters.recovery_indeterminate).toBe(0);
      expect(metrics.counters[cls]).toBe(1);
      second.proc.kill('SIGTERM');
      await second.exited;
      client2.close();

      // The ledger: both inputs spent or neither; value per mint conserved.
      const states = await ledger.getNoteStatuses({ nullifiers: [nullifierOf(usdc), nullifierOf(sol)] });
      const solvency = await ledger.getSolvency();
      for (const m of solvency.mints) expect(m.vault_balance).toBe(m.outstanding_note_value);
      const memos = (await ledger.getMemos({ from: memosBefore, to: memosBefore + 100 })).memos;
      if (settled) {
        expect(states.map((s) => s.state)).toEqual(['spent', 'spent']);
        // Each owner finds its memo on the ledger and decrypts it with its viewing key.
        const mine = (t: Trader) =>
          memos.flatMap((m) => {
            try {
              return [decryptFillMemo(t.viewing.privateKey, hexToBytes(m.memo))];
            } catch {
              return [];
            }
          });
        expect(mine(alice).map((m) => bytesToHex(m.orderId))).toEqual([bid.order_id]);
        expect(mine(bob).map((m) => bytesToHex(m.orderId))).toEqual([ask.order_id]);
      } else {
        expect(states.every((s) => s.state !== 'spent')).toBe(true);
        expect(memos).toHaveLength(0);
      }
    }, 120_000);
  }
});
