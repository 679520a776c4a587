/**
 * Fill memos: each party's match details encrypted to its order's viewing key, stored on the
 * ledger with the settlement and pushed on the `fills` channel once it is confirmed.
 */
import { encryptFillMemo } from '@nightjar/crypto';
import { bytesToHex, hexToBytes } from '@nightjar/protocol';
import type { JobState } from './types.js';

/** Hex memos for [bid party, ask party]. */
export function fillMemos(j: JobState): [string, string] {
  return [fillMemo(j, 'bid'), fillMemo(j, 'ask')];
}

function fillMemo(j: JobState, side: 'bid' | 'ask'): string {
  const p = j.plan[side];
  try {
    return bytesToHex(
      encryptFillMemo(hexToBytes(p.viewingPubkey), {
        orderId: hexToBytes(p.orderId),
        matchId: BigInt(j.plan.matchId),
        tradeAmount: BigInt(p.tradeAmount),
        changeAmount: BigInt(p.changeAmount),
        feeAmount: BigInt(p.feeAmount),
        outputInners: p.outputs.map((o) => BigInt('0x' + o.inner)),
      }),
    );
  } catch {
    return ''; // cannot happen for a key intake accepted (1008); an empty memo still settles
  }
}
