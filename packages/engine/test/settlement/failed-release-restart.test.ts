/**
 * Issue 28 item 7, across a crash: the engine as a real child process fails a match after both
 * inputs were locked (its match proof fails) and is SIGKILLed right after journaling the failure,
 * before any release was sent. Restarted on the same data directory, it sends the releases the
 * journal owes: both notes read `free` on the ledger long before their locks would have ended.
 */
import { expect, it } from 'vitest';
import { startEngineProcess } from '@nightjar/testkit/process';
import { crashLedger, crashMidSettlement } from './crash-scenario.js';
import { nullifierOf } from './venue-helpers.js';

const lab = crashLedger();

it('killed between a failed settlement and its releases: the restarted engine releases both locks', async () => {
  const { ledger, server } = lab;
  const dataDir = await lab.dataDir();
  const env = { LEDGER_URL: server.url, DATA_DIR: dataDir, NIGHTJAR_TEST_PROOFS_FAIL: '1' };
  const { usdc, sol } = await crashMidSettlement(ledger, env, 'failed');
  const nullifiers = [nullifierOf(usdc), nullifierOf(sol)];
  const states = async () => (await ledger.getNoteStatuses({ nullifiers })).map((s) => s.state);
  // The failure was journaled, no release sent: both notes are still locked.
  expect(await states()).toEqual(['locked', 'locked']);

  const second = await startEngineProcess(env);
  for (let i = 0; i < 300 && (await states()).some((s) => s !== 'free'); i++) {
    await ledger.advanceSlots({ slots: 1 });
    await new Promise((r) => setTimeout(r, 20)); // the child hears each slot over the event socket
  }
  expect(await states()).toEqual(['free', 'free']);
  second.proc.kill('SIGTERM');
  await second.exited;
}, 120_000);
