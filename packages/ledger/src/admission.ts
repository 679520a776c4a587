/**
 * Admission of transactions, ahead of the single writer. Each signer has its own lane: its
 * transactions are staged (cheap checks, then proof verification off the writer) one after another
 * in nonce order and handed to the writer in that order, while other signers' lanes run beside it.
 * A lane holds a bounded number of transactions from acceptance until they land; past a bound,
 * `sendTransaction` refuses with -32007 before any work is done. The bounds: per signer; per
 * source address (in-process callers are one source); in total; and, inside the total and inside
 * each source's share, a smaller share for fresh signers (no landed successful transaction), so a
 * flood of fresh keys cannot take the places of signers with history. The TEE keys (at most 16,
 * each bounded on its own) count against none but their own lane: strangers cannot refuse
 * settlements.
 */
import { addressKey } from '@nightjar/protocol';
import { RPC_ERRORS, RpcError } from '@nightjar/protocol/ledger-client';
import type { DecodedInstruction } from './program/args.js';
import type { ExecContext, ProofVerdict } from './program/context.js';
import { precheckProofs } from './program/prechecks.js';
import { proofJobs, verifyJobs, type LedgerProofVerifier } from './program/proof-checks.js';

export interface AdmissionLimits {
  /** Transactions one signer may have accepted and not yet landed. */
  perSigner: number;
  /** The same from one source address, over its signers but the TEE keys. */
  perSource: number;
  /** The same over all signers but the TEE keys. */
  total: number;
  /** Of the total, what fresh signers may hold together. */
  fresh: number;
  /** Of one source's share, what its fresh signers may hold together. */
  freshPerSource: number;
}

export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = {
  perSigner: 64,
  perSource: 256,
  total: 1024,
  fresh: 256,
  freshPerSource: 32,
};

/** The source of in-process callers (the RPC server passes the remote address). */
export const LOCAL_SOURCE = 'local';

/**
 * The admission source of a caller's address: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64 (one host commonly holds a whole /64), nothing else given:
 * the local source.
 */
export function sourceOf(address: string | undefined): string {
  return address === undefined || address === '' ? LOCAL_SOURCE : addressKey(address);
}

/**
 * Who is asking: a TEE key (counted only in its lane), a signer with history, or a fresh one. A
 * signer's class is taken when its transaction arrives.
 */
export type SignerClass = 'tee' | 'history' | 'fresh';

interface Lane {
  held: number;
  tail: Promise<unknown>;
}

/** Counts per key, dropping a key at zero so the maps stay as small as what waits. */
class Tally {
  private readonly counts = new Map<string, number>();
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  add(key: string, delta: number): void {
    const n = this.get(key) + delta;
    if (n === 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }
}

/** The share a transaction of `kind` from `source` takes, as the counters it moves. */
function sharesOf(kind: SignerClass, source: string): string[] {
  if (kind === 'tee') return [];
  const shares = ['total', `source:${source}`];
  return kind === 'fresh' ? [...shares, 'fresh', `fresh:${source}`] : shares;
}

export class SignerLanes {
  private readonly lanes = new Map<string, Lane>();
  private readonly held = new Tally();
  private readonly limits: AdmissionLimits;

  constructor(limits: Partial<AdmissionLimits> = {}) {
    this.limits = { ...DEFAULT_ADMISSION_LIMITS, ...limits };
  }

  /** Throws -32007 unless `signer` (from `source`, of class `kind`) may have one more transaction waiting. */
  assertRoom(signer: string, source: string, kind: SignerClass): void {
    const { perSigner, perSource, total, fresh, freshPerSource } = this.limits;
    if ((this.lanes.get(signer)?.held ?? 0) >= perSigner)
      throw new RpcError(
        RPC_ERRORS.busy,
        `too many transactions from this signer waiting to land (${perSigner}); retry after one lands`,
      );
    if (kind === 'tee') return;
    if (this.held.get(`source:${source}`) >= perSource)
      throw new RpcError(
        RPC_ERRORS.busy,
        'too many transactions from this address waiting to land; retry shortly',
      );
    if (kind === 'fresh' && this.held.get(`fresh:${source}`) >= freshPerSource)
      throw new RpcError(
        RPC_ERRORS.busy,
        'too many transactions of new signers from this address waiting to land; retry shortly',
      );
    if (kind === 'fresh' && this.held.get('fresh') >= fresh)
      throw new RpcError(
        RPC_ERRORS.busy,
        'too many transactions of new signers waiting to land; retry shortly',
      );
    if (this.held.get('total') >= total)
      throw new RpcError(RPC_ERRORS.busy, 'too many transactions waiting to land; retry shortly');
  }

  /**
   * Admits one transaction of `signer` or throws -32007. `stage` runs once the signer's earlier
   * transactions have finished theirs; the place is held until `release` (after landing, or when the
   * transaction is given up).
   */
  admit<T>(
    signer: string,
    source: string,
    kind: SignerClass,
    stage: () => Promise<T>,
  ): { staged: Promise<T>; release: () => void } {
    this.assertRoom(signer, source, kind);
    const lane = this.lanes.get(signer) ?? { held: 0, tail: Promise.resolve() };
    this.lanes.set(signer, lane);
    lane.held++;
    const shares = sharesOf(kind, source);
    for (const share of shares) this.held.add(share, 1);
    const staged = lane.tail.then(stage);
    lane.tail = staged.catch(() => undefined);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const share of shares) this.held.add(share, -1);
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
  // A proof judged on public inputs read from state carries them, so landing can tell if it moved.
  open.forEach(
    (o, k) =>
      (verdicts[o.i] =
        results[k] === true && o.job.fromState
          ? { verifiedAgainst: o.job.publicInputs }
          : results[k] === true),
  );
  return verdicts;
}
