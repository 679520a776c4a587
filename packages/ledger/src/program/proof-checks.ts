/**
 * The proofs an instruction carries and how they are checked, before the instruction runs (judged
 * at admission, off the writer, see admission.ts):
 * - a lock entry's VALID_INPUT v2 (the owner's) or VALID_LOCK (the engine's, for a change note),
 *   both over [use_tag, merkle_root, nullifier]; nothing says which, so the VALID_INPUT v2 key is
 *   tried first and the VALID_LOCK key second (a field would tell which orders were filled before);
 * - VALID_MATCH v2 for each match of a settlement (public inputs: @nightjar/crypto valid-match-v2.ts),
 *   the use tags read from the locks, never from the transaction;
 * - VALID_JOIN_SPLIT v2 for note splits and merges, VALID_SPEND v2 for withdrawals (DESIGN.md section 3).
 */
import {
  JOIN_SPLIT_MAX_OUTPUTS,
  joinSplitMemoHash,
  matchMemoHash,
  spendChangeMemoHash,
  validJoinSplitPublicSignals,
  validMatchV2PublicSignals,
} from '@nightjar/crypto';
import { mintToFields, parseAddress } from '@nightjar/protocol';
import type { ChainState } from '../chain-state.js';
import type { MarketRecord } from '@nightjar/protocol/ledger-client';
import type { Args, MatchArgs } from './args.js';
import type { ExecContext } from './context.js';
import type { LockEntry } from './locks.js';

export type Circuit =
  'valid_spend_v2' | 'valid_input_v2' | 'valid_lock' | 'valid_match_v2' | 'valid_join_split_v2';

/** Checks Groth16 proofs for the vault program. */
export interface LedgerProofVerifier {
  verify(circuit: Circuit, proof: Uint8Array, publicInputs: bigint[]): Promise<boolean>;
  /**
   * Many proofs of one circuit at once, one verdict per item in order (a settlement's matches). Optional: a
   * verifier without it has each proof checked with `verify`.
   */
  verifyBatch?(circuit: Circuit, items: { proof: Uint8Array; publicInputs: bigint[] }[]): Promise<boolean[]>;
  /** Releases what the verifier holds (worker threads). */
  close?(): Promise<void>;
}

export interface ProofJob {
  circuit: Circuit;
  /** A second circuit the same proof may be of, tried when the first refuses it (a lock's VALID_LOCK). */
  orElse?: Circuit;
  proof: Uint8Array;
  publicInputs: bigint[];
  /** The public inputs come partly from state that may change before landing (a match's locks). */
  fromState?: boolean;
}

const field = (hex: string) => BigInt('0x' + hex);

/**
 * The use tags the locks of a match's inputs recorded, bid then ask, or undefined when an input
 * has no lock or a lock from before settlement v2 (no use tag). Never the transaction's.
 */
export function lockedUseTags(ctx: Pick<ExecContext, 'state'>, m: MatchArgs): [string, string] | undefined {
  const tags = m.inputs.map((i) => ctx.state.lock(i.nullifier)?.use_tag);
  return tags[0] && tags[1] ? [tags[0], tags[1]] : undefined;
}

/**
 * A match's VALID_MATCH v2 job. Every public input comes from the ledger's own state (the use tags
 * the two locks recorded, the market's id, mints, price scale and fee rate, the vault's fee owner)
 * or from the arguments the ledger itself checks and acts on (the batch's settle_by_slot, the six
 * commitments it appends, the memos it stores and the shards it appends to), so a proof for
 * anything else does not verify.
 */
export function validMatchJob(
  market: MarketRecord,
  feeOwnerCommitment: string,
  settleBySlot: bigint,
  m: MatchArgs,
  useTags: readonly [string, string],
): ProofJob {
  const outputs = m.outputs.map((o) => field(o.commitment)) as unknown as readonly [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return {
    circuit: 'valid_match_v2',
    proof: Buffer.from(m.proof, 'hex'),
    fromState: true,
    publicInputs: validMatchV2PublicSignals({
      bidUseTag: field(useTags[0]),
      askUseTag: field(useTags[1]),
      marketId: parseAddress(market.market_id)!,
      baseMint: parseAddress(market.base_mint)!,
      quoteMint: parseAddress(market.quote_mint)!,
      priceScale: BigInt(market.price_scale),
      feeBps: BigInt(market.fee_bps),
      feeOwnerCommitment: field(feeOwnerCommitment),
      settleBySlot,
      outputs,
      memoHash: matchMemoHash(
        Buffer.from(m.memos[0]!, 'hex'),
        Buffer.from(m.memos[1]!, 'hex'),
        m.outputs.map((o) => o.tree_id),
      ),
    }),
  };
}

/** A lock entry's job: VALID_INPUT v2, else VALID_LOCK, over exactly what the lock records and names. */
function lockJob(entry: LockEntry): ProofJob {
  return {
    circuit: 'valid_input_v2',
    orElse: 'valid_lock',
    proof: Buffer.from(entry.proof, 'hex'),
    publicInputs: [field(entry.use_tag), field(entry.merkle_root), field(entry.nullifier)],
  };
}

/**
 * A withdrawal's VALID_SPEND v2 job: the root, nullifier, mint and amount it pays, the recipient
 * (so a replayed proof pays nobody else), the change it appends (0 when it appends none) and the
 * hash of the change's shard and memo (0 without change). Each is read from the transaction the
 * ledger acts on, so a copy of the proof re-signed with another memo or shard, or with a change
 * added or dropped, does not verify.
 */
function validSpendJob(a: Args<'withdraw'>): ProofJob {
  const { mintHi, mintLo } = mintToFields(parseAddress(a.mint)!);
  const recipient = mintToFields(parseAddress(a.recipient)!);
  return {
    circuit: 'valid_spend_v2',
    proof: Buffer.from(a.proof, 'hex'),
    publicInputs: [
      field(a.merkle_root),
      field(a.nullifier),
      mintLo,
      mintHi,
      BigInt(a.amount),
      recipient.mintHi,
      recipient.mintLo,
      a.change ? field(a.change.commitment) : 0n,
      spendChangeMemoHash(a.change && { treeId: a.change.tree_id, memo: Buffer.from(a.change.memo, 'hex') }),
    ],
  };
}

/**
 * A join-split's VALID_JOIN_SPLIT job: the roots it finds in the windows, the nullifiers it spends,
 * the commitments it appends (0 in the slots it leaves empty) and the hash of the memo it stores
 * and of the shards it appends to.
 */
function validJoinSplitJob(a: Args<'join_split'>): ProofJob {
  const outputs = Array<bigint>(JOIN_SPLIT_MAX_OUTPUTS).fill(0n);
  const shards = Array<number | undefined>(JOIN_SPLIT_MAX_OUTPUTS).fill(undefined);
  for (const out of a.outputs) {
    outputs[out.slot] = field(out.commitment);
    shards[out.slot] = out.tree_id;
  }
  return {
    circuit: 'valid_join_split_v2',
    proof: Buffer.from(a.proof, 'hex'),
    publicInputs: validJoinSplitPublicSignals({
      inputs: a.inputs.map((i) => ({ merkleRoot: field(i.merkle_root), nullifier: field(i.nullifier) })),
      outputs,
      memoHash: joinSplitMemoHash(Buffer.from(a.memo, 'hex'), shards),
    }),
  };
}

/**
 * The proofs in an instruction's (already parsed) arguments, in argument order. A settlement's jobs
 * need its market and the vault: undefined where they are missing (the prechecks refuse those
 * matches, so they are never verified).
 */
export function proofJobs(state: ChainState, name: string, args: unknown): (ProofJob | undefined)[] {
  if (name === 'withdraw') return [validSpendJob(args as Args<'withdraw'>)];
  if (name === 'join_split') return [validJoinSplitJob(args as Args<'join_split'>)];
  if (name === 'lock_note') return [lockJob(args as Args<'lock_note'>)];
  if (name === 'lock_notes') return (args as Args<'lock_notes'>).locks.map(lockJob);
  if (name === 'settle_batch') {
    const a = args as Args<'settle_batch'>;
    const market = state.markets.get(a.market_id);
    const feeOwner = state.vault?.fee_owner_commitment;
    return a.matches.map((m) => {
      const tags = lockedUseTags({ state }, m);
      return market && feeOwner && tags
        ? validMatchJob(market, feeOwner, a.settle_by_slot, m, tags)
        : undefined;
    });
  }
  return [];
}

/** One verdict per job of one circuit, in order: a batch where the verifier takes one. */
async function verifyOneCircuit(
  verifier: LedgerProofVerifier,
  circuit: Circuit,
  jobs: ProofJob[],
): Promise<boolean[]> {
  if (jobs.length > 1 && verifier.verifyBatch) return verifier.verifyBatch(circuit, jobs);
  return Promise.all(jobs.map((j) => verifier.verify(circuit, j.proof, j.publicInputs)));
}

/**
 * One verdict per job, in order. Every instruction's proofs are of one circuit (a lock's maybe of
 * its second), so one batch covers them, and a second batch the lock proofs the first key refused.
 */
export async function verifyJobs(verifier: LedgerProofVerifier, jobs: ProofJob[]): Promise<boolean[]> {
  const verdicts = Array<boolean>(jobs.length).fill(false);
  /** Verifies the jobs at `at`, each against `circuitOf(job)`: one batch per circuit. */
  const pass = async (at: number[], circuitOf: (job: ProofJob) => Circuit): Promise<void> => {
    const byCircuit = new Map<Circuit, number[]>();
    for (const i of at) {
      const circuit = circuitOf(jobs[i]!);
      byCircuit.set(circuit, [...(byCircuit.get(circuit) ?? []), i]);
    }
    await Promise.all(
      [...byCircuit].map(async ([circuit, group]) => {
        const results = await verifyOneCircuit(
          verifier,
          circuit,
          group.map((i) => jobs[i]!),
        );
        group.forEach((i, k) => (verdicts[i] = results[k] === true));
      }),
    );
  };
  await pass(
    jobs.map((_, i) => i),
    (job) => job.circuit,
  );
  await pass(
    jobs.flatMap((job, i) => (!verdicts[i] && job.orElse ? [i] : [])),
    (job) => job.orElse!,
  );
  return verdicts;
}
