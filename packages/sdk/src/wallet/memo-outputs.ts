/**
 * What a fill memo's output slots mean. Settlement v2 (DESIGN 6, 7): every match creates all six
 * outputs, so a memo lists its party's three inners, trade-out, change, fee, zero-value ones
 * included; a memo of before listed only the outputs that existed (non-zero amounts), in that
 * order, and is still read. DESIGN 3: a trade-out's or fee's inner is Poseidon(4, inner of the
 * consumed note, role); a v2 change inner is Poseidon(4, parent inner, 2, remainder digest), which
 * only the order's terms give, so the parent is recognised by its trade-out and fee inners and the
 * change note by its leaf (ingest-fill.ts). A memo whose inners do not derive from a note of this
 * wallet is not a fill of ours, whatever order id it names.
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
  const all = [
    [OutputRole.tradeOut, memo.tradeAmount],
    [OutputRole.change, memo.changeAmount],
    [OutputRole.fee, memo.feeAmount],
  ] as const;
  // n = 3: every output, zero-value ones too (settlement v2).
  if (memo.outputInners.length === all.length)
    return all.map(([role, amount], i) => ({ role, amount, inner: memo.outputInners[i]! }));
  const present = all.filter(([, amount]) => amount > 0n);
  if (present.length !== memo.outputInners.length) return undefined;
  return present.map(([role, amount], i) => ({ role, amount, inner: memo.outputInners[i]! }));
}

/**
 * Whether the outputs derive from `parentInner`: each trade-out and fee is `Poseidon(4, parentInner,
 * role)`, and so is a change of before v2; a v2 change (its inner carries the remainder's digest)
 * needs a trade-out or fee beside it that derives, and is then checked by its leaf.
 */
export function derivesFrom(outputs: readonly MemoOutput[], parentInner: bigint): boolean {
  const derives = (o: MemoOutput) => outputInner(parentInner, o.role) === o.inner;
  const anchored = outputs.some((o) => o.role !== OutputRole.change && derives(o));
  return outputs.every((o) => derives(o) || (o.role === OutputRole.change && anchored));
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
