/**
 * What admission checks before any proof is verified: the handlers' own checks that come before
 * the proof (signer, market, roots, lock and nullifier state, a settlement's deadline), run read-only against the current state.
 * A proof whose request already fails them is never verified, so a stranger's junk costs no
 * pairing. They are re-run when the transaction lands, since the state may have moved.
 */
import { InstructionError } from '@nightjar/protocol/ledger-client';
import type { Args, InstructionName } from './args.js';
import { requireTeeSigner, type ExecContext } from './context.js';
import { checkWithdrawRequest } from './instructions.js';
import { checkJoinSplit } from './join-split.js';
import { checkLockEntry } from './locks.js';
import { checkBatch, checkMatch, sharedNullifiers } from './settle.js';

/** Per proof the instruction carries, in argument order: the refusal that spares it, or undefined. */
export function precheckProofs(
  ctx: ExecContext,
  name: InstructionName,
  args: unknown,
): (InstructionError | undefined)[] {
  switch (name) {
    case 'settle_batch': {
      const a = args as Args<'settle_batch'>;
      const batch = refusal(() => checkBatch(ctx, a));
      const shared = sharedNullifiers(a);
      return a.matches.map((m) => batch ?? refusal(() => checkMatch(ctx, m, shared)));
    }
    case 'lock_note':
      return [refusal(() => (requireTeeSigner(ctx), checkLockEntry(ctx, args as Args<'lock_note'>)))];
    case 'lock_notes': {
      const signer = refusal(() => requireTeeSigner(ctx));
      return (args as Args<'lock_notes'>).locks.map(
        (entry) => signer ?? refusal(() => checkLockEntry(ctx, entry)),
      );
    }
    case 'join_split':
      return [refusal(() => checkJoinSplit(ctx, args as Args<'join_split'>))];
    case 'withdraw':
      return [refusal(() => checkWithdrawRequest(ctx, args as Args<'withdraw'>))];
    default:
      return [];
  }
}

function refusal(check: () => unknown): InstructionError | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (err instanceof InstructionError) return err;
    throw err;
  }
}
