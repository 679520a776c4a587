/**
 * What a fill memo's output slots mean. DESIGN 7: a memo lists only the outputs that exist (a
 * zero-value output is never created), in role order trade-out, change, fee; DESIGN 3: each
 * output's inner is Poseidon(4, inner of the consumed note, role). So the slots are read by walking
 * the roles and skipping zero amounts, and an output is believed only when it derives from a note
 * of this wallet: a memo whose inners do not is not a fill of ours, whatever order id it names.
 */
import { outputInner, OutputRole, type FillMemo } from '@nightjar/crypto';

/** One output a memo lists. */
export interface MemoOutput {
  role: OutputRole;
  amount: bigint;
  inner: bigint;
}

/**
 * The memo's outputs with their roles, or undefined when the slot count does not match the
 * non-zero amounts (a malformed memo).
 */
export function memoOutputs(memo: FillMemo): MemoOutput[] | undefined {
  const present = (
    [
      [OutputRole.tradeOut, memo.tradeAmount],
      [OutputRole.change, memo.changeAmount],
      [OutputRole.fee, memo.feeAmount],
    ] as const
  ).filter(([, amount]) => amount > 0n);
  if (present.length !== memo.outputInners.length) return undefined;
  return present.map(([role, amount], i) => ({ role, amount, inner: memo.outputInners[i]! }));
}

/** Whether every output is `Poseidon(4, parentInner, role)`. */
export function derivesFrom(outputs: readonly MemoOutput[], parentInner: bigint): boolean {
  return outputs.every((o) => outputInner(parentInner, o.role) === o.inner);
}

const ROLES = [OutputRole.tradeOut, OutputRole.change, OutputRole.fee] as const;

/**
 * Finds the note a memo's outputs derive from among the wallet's notes: the output inners of every
 * note, per role, computed once per note (three Poseidon hashes) and kept.
 */
export class ParentIndex {
  private readonly byChild = new Map<bigint, string>();
  private readonly indexed = new Set<string>();

  /** The commitment of the note whose output `inner` is, after indexing any new `notes`. */
  find(inner: bigint, notes: Iterable<{ commitment: string; inner: string }>): string | undefined {
    const hit = this.byChild.get(inner);
    if (hit) return hit;
    for (const n of notes) {
      if (this.indexed.has(n.commitment)) continue;
      this.indexed.add(n.commitment);
      const parent = BigInt('0x' + n.inner);
      for (const role of ROLES) this.byChild.set(outputInner(parent, role), n.commitment);
    }
    return this.byChild.get(inner);
  }
}
