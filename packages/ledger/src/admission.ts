/**
 * Admission of transactions, ahead of the single writer. Each signer has its own lane: its
 * transactions are staged (cheap checks, then proof verification off the writer) one after another
 * in nonce order and handed to the writer in that order, while other signers' lanes run beside it.
 * A lane holds a bounded number of transactions from acceptance until they land; past the bound,
 * per signer or in total, `sendTransaction` refuses with -32007 before any work is done.
 */
import { RPC_ERRORS, RpcError } from './errors.js';
import type { DecodedInstruction } from './program/args.js';
import type { ExecContext, ProofVerdict } from './program/context.js';
import { precheckProofs } from './program/prechecks.js';
import { proofJobs, verifyJobs, type LedgerProofVerifier } from './proof-checks.js';

export interface AdmissionLimits {
  /** Transactions one signer may have accepted and not yet landed. */
  perSigner: number;
  /** The same over all signers but the TEE keys. */
  total: number;
}

export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = { perSigner: 64, total: 1024 };

interface Lane {
  held: number;
  tail: Promise<unknown>;
}

export class SignerLanes {
  private readonly lanes = new Map<string, Lane>();
  private total = 0;

  constructor(private readonly limits: AdmissionLimits = DEFAULT_ADMISSION_LIMITS) {}

  /**
   * Throws -32007 unless `signer` (and the ledger) may have one more transaction waiting. A TEE
   * signer (at most 16, each bounded on its own) is not counted against the total, so strangers
   * filling it cannot refuse settlements.
   */
  assertRoom(signer: string, teeSigner: boolean): void {
    if ((this.lanes.get(signer)?.held ?? 0) >= this.limits.perSigner)
      throw new RpcError(
        RPC_ERRORS.busy,
        `too many transactions from this signer waiting to land (${this.limits.perSigner}); retry after one lands`,
      );
    if (!teeSigner && this.total >= this.limits.total)
      throw new RpcError(RPC_ERRORS.busy, 'too many transactions waiting to land; retry shortly');
  }

  /**
   * Admits one transaction of `signer` or throws -32007. `stage` runs once the signer's earlier
   * transactions have finished theirs; the place is held until `release` (after landing, or when the
   * transaction is given up).
   */
  admit<T>(
    signer: string,
    teeSigner: boolean,
    stage: () => Promise<T>,
  ): { staged: Promise<T>; release: () => void } {
    this.assertRoom(signer, teeSigner);
    const lane = this.lanes.get(signer) ?? { held: 0, tail: Promise.resolve() };
    this.lanes.set(signer, lane);
    lane.held++;
    const counted = !teeSigner;
    if (counted) this.total++;
    const staged = lane.tail.then(stage);
    lane.tail = staged.catch(() => undefined);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (counted) this.total--;
      if (--lane.held === 0) this.lanes.delete(signer);
    };
    return { staged, release };
  }
}

/**
 * The verdict on every proof an instruction carries, in argument order. Proofs whose request fails
 * the cheap checks are not verified (their verdict is that refusal); the rest go to the verifier in
 * one batch. A verifier that cannot take them (at capacity, closed) refuses the transaction.
 */
export async function judgeProofs(
  verifier: LedgerProofVerifier,
  ctx: ExecContext,
  decoded: DecodedInstruction,
): Promise<ProofVerdict[]> {
  if (!decoded.ok) return [];
  const jobs = proofJobs(ctx.state, decoded.name, decoded.args);
  if (jobs.length === 0) return [];
  const verdicts: ProofVerdict[] = precheckProofs(ctx, decoded.name, decoded.args).map((e) => e ?? false);
  const open = jobs.flatMap((job, i) => (verdicts[i] === false && job ? [{ job, i }] : []));
  if (open.length === 0) return verdicts;
  let results: boolean[];
  try {
    results = await verifyJobs(
      verifier,
      open.map((o) => o.job),
    );
  } catch (err) {
    if (err instanceof RpcError) throw err;
    throw new RpcError(RPC_ERRORS.nodeUnavailable, 'proof verification is unavailable; retry shortly');
  }
  open.forEach((o, k) => (verdicts[o.i] = results[k] === true));
  return verdicts;
}
