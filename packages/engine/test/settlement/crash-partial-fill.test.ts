/**
 * SIGKILL at settlement v2's new stages, in a real child process on the same data directory and
 * ledger: a partially filled order's change note VALID_LOCK in progress, and its remainder's
 * second match with the locks sent (the change note's lock carries the engine's VALID_LOCK), with
 * its match proof in progress, and with its settlement sent. After the restart's recovery nothing
 * is lost and nothing is spent twice: the first match stays settled, the second is settled in full
 * or not at all, the change note is spent exactly when the second match settled, and value per
 * mint is conserved.
 */
import { describe, expect, it } from 'vitest';
import { decryptFillMemo, deriveNote, noteNullifier } from '@nightjar/crypto';
import { bytesToHex, fieldToHex, hexToBytes, parseAddress } from '@nightjar/protocol';
import { login, SOL, Trader, USDC, HttpsClient } from '@nightjar/testkit';
import { startEngineProcess } from '@nightjar/testkit/process';
import { crashLedger, ONE_SOL, PRICE, steppedUntilKilled } from './crash-scenario.js';
import { clientVenue } from './engine-process.js';
import { nullifierOf } from './venue-helpers.js';

const lab = crashLedger();

type Class = 'recovery_released' | 'recovery_already_settled';
/**
 * `cls` undefined: the first match is done when its change note's proof starts (at its
 * confirmation), and whether the remainder's next match was planned before the kill depends on
 * timing (its auction runs at the next slot); either way it is released or never existed, and
 * nothing of it is consumed.
 */
const STAGES: { at: string; secondSettled: boolean; cls?: Class; what: string }[] = [
  {
    at: 'lock_proving',
    secondSettled: false,
    what: 'the change note VALID_LOCK in progress',
  },
  {
    at: 'locking_notes:sent#2',
    secondSettled: false,
    cls: 'recovery_released',
    what: "the remainder's locks sent",
  },
  {
    at: 'proving#2',
    secondSettled: false,
    cls: 'recovery_released',
    what: "the remainder's match proof in progress",
  },
  {
    at: 'settling:sent#2',
    secondSettled: true,
    cls: 'recovery_already_settled',
    what: "the remainder's settlement sent",
  },
];

describe('a partial fill survives SIGKILL at each new settlement v2 stage', () => {
  for (const { at, secondSettled, cls, what } of STAGES) {
    it(`killed with ${what} (${at})`, async () => {
      const { ledger, server } = lab;
      const dataDir = await lab.dataDir();
      const env = { LEDGER_URL: server.url, DATA_DIR: dataDir };
      const first = await startEngineProcess({ ...env, NIGHTJAR_CRASH_AT: at });
      const client = new HttpsClient(first.url, first.cert);
      const { venue } = await clientVenue(ledger, first, client);
      const adminToken = await login(client, first.admin!);
      const account = async () => {
        const c = await client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
        return login(client, c.body);
      };
      const [aliceToken, bobToken, carolToken] = [await account(), await account(), await account()];
      const [alice, bob, carol] = [new Trader(venue), new Trader(venue), new Trader(venue)];
      const usdc = await alice.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
      const sol1 = await bob.deposit(SOL, 2n * ONE_SOL);
      const sol2 = await carol.deposit(SOL, 3n * ONE_SOL);
      const memosBefore = (await ledger.getMemos({ from: 0, to: 10_000 })).memos.length;
      // Alice's bid for 3 SOL fills 1 SOL from Bob's ask, then its remainder 2 SOL from Carol's.
      const bid = alice.order(usdc, { amount: 3n * ONE_SOL });
      const ask1 = bob.order(sol1, { amount: ONE_SOL, price_limit: PRICE });
      const ask2 = carol.order(sol2, { amount: 2n * ONE_SOL, price_limit: PRICE });
      for (const [token, body] of [
        [aliceToken, bid],
        [bobToken, ask1],
        [carolToken, ask2],
      ] as const)
        expect((await client.send('/orders', { token, body })).status).toBe(202);
      await steppedUntilKilled(ledger, first);
      client.close();

      // Restart on the same data directory; recovery reconciles against the ledger.
      const second = await startEngineProcess(env);
      const client2 = new HttpsClient(second.url, second.cert);
      const admin2 = await login(client2, first.admin!);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body read field by field
      let metrics: Record<string, any> = {};
      for (let i = 0; i < 300; i++) {
        await ledger.advanceSlots({ slots: 1 });
        metrics = (await client2.send('/admin/metrics/settlement', { token: admin2 })).body;
        const c = metrics.counters ?? {};
        const recovered = c.recovery_already_settled + c.recovery_released + c.recovery_redriven;
        if ((recovered >= 1 || (cls === undefined && i >= 5)) && metrics.in_flight_matches === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(metrics.in_flight_matches).toBe(0);
      expect(metrics.counters.recovery_indeterminate).toBe(0);
      if (cls) expect(metrics.counters[cls]).toBe(1);
      else expect(metrics.counters.recovery_already_settled + metrics.counters.recovery_redriven).toBe(0);
      second.proc.kill('SIGTERM');
      await second.exited;
      client2.close();

      // Alice's first fill's memo names her change note.
      const memos = (await ledger.getMemos({ from: memosBefore, to: memosBefore + 100 })).memos;
      const mine = (t: Trader) =>
        memos.flatMap((m) => {
          try {
            return [decryptFillMemo(t.viewing.privateKey, hexToBytes(m.memo))];
          } catch {
            return [];
          }
        });
      const aliceFills = mine(alice);
      expect(aliceFills.map((m) => bytesToHex(m.orderId))).toEqual(
        secondSettled ? [bid.order_id, bid.order_id] : [bid.order_id],
      );
      const firstFill = aliceFills[0]!;
      const change = deriveNote({
        mint: parseAddress(USDC)!,
        amount: firstFill.changeAmount,
        ownerCommitment: BigInt('0x' + usdc.ownerCommitment),
        noteInnerHash: firstFill.outputInners[1]!,
      });
      const changeNullifier = fieldToHex(noteNullifier(change.noteCommitment, firstFill.outputInners[1]!));
      const states = await ledger.getNoteStatuses({
        nullifiers: [nullifierOf(usdc), nullifierOf(sol1), changeNullifier, nullifierOf(sol2)],
      });
      // The first match stays settled; the second is all or nothing.
      expect(states.map((s) => s.state === 'spent')).toEqual([true, true, secondSettled, secondSettled]);
      expect(mine(carol).map((m) => bytesToHex(m.orderId))).toEqual(secondSettled ? [ask2.order_id] : []);
      const solvency = await ledger.getSolvency();
      for (const m of solvency.mints) expect(m.vault_balance).toBe(m.outstanding_note_value);
    }, 120_000);
  }
});
