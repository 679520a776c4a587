/**
 * The proofs an instruction carries and how they are checked, before the instruction runs:
 * VALID_MATCH for each match of a settlement (public inputs in @nightjar/crypto's valid-match.ts),
 * VALID_SPEND for withdrawals (DESIGN.md section 3), VALID_JOIN_SPLIT for note splits and merges. They are judged at admission, off the writer
 * (see admission.ts). VALID_INPUT is checked by the engine at intake and never reaches the chain.
 */
import {
  CHANGE_SLOT,
  JOIN_SPLIT_MAX_OUTPUTS,
  joinSplitMemoHash,
  validJoinSplitPublicSignals,
  validMatchPublicSignals,
} from '@nightjar/crypto';
import { mintToFields, parseAddress } from '@nightjar/protocol';
import type { ChainState } from './chain-state.js';
import type { Args } from './program/args.js';
import type { MatchArgs } from './program/settle.js';
import type { MarketRecord } from './types.js';

export type Circuit = 'valid_spend' | 'valid_match' | 'valid_join_split';

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
  proof: Uint8Array;
  publicInputs: bigint[];
}

const field = (hex: string) => BigInt('0x' + hex);

/**
 * A match's VALID_MATCH job. Every public input comes from the ledger's own state (the market's
 * mints, price scale and fee rate, the vault's fee owner) or from the arguments the ledger itself
 * checks and acts on (roots it finds in the windows, the nullifiers it spends, the commitments it
 * appends, the nullifiers it relocks), so a proof for anything else does not verify.
 */
export function validMatchJob(market: MarketRecord, feeOwnerCommitment: string, m: MatchArgs): ProofJob {
  const [bid, ask] = m.inputs as [MatchArgs['inputs'][number], MatchArgs['inputs'][number]];
  const outputs: [bigint, bigint, bigint, bigint, bigint, bigint] = [0n, 0n, 0n, 0n, 0n, 0n];
  for (const out of m.outputs) outputs[out.slot] = field(out.commitment);
  const relockAt = (slot: number) => {
    const relock = m.outputs.find((o) => o.slot === slot)?.relock;
    return relock ? field(relock.nullifier) : 0n;
  };
  return {
    circuit: 'valid_match',
    proof: Buffer.from(m.proof, 'hex'),
    publicInputs: validMatchPublicSignals({
      rootBid: field(bid.merkle_root),
      nullifierBid: field(bid.nullifier),
      rootAsk: field(ask.merkle_root),
      nullifierAsk: field(ask.nullifier),
      baseMint: parseAddress(market.base_mint)!,
      quoteMint: parseAddress(market.quote_mint)!,
      priceScale: BigInt(market.price_scale),
      feeBps: BigInt(market.fee_bps),
      feeOwnerCommitment: field(feeOwnerCommitment),
      outputs,
      bidRelockNullifier: relockAt(CHANGE_SLOT.bid),
      askRelockNullifier: relockAt(CHANGE_SLOT.ask),
    }),
  };
}

function validSpendJob(a: Args<'withdraw'>): ProofJob {
  const { mintHi, mintLo } = mintToFields(parseAddress(a.mint)!);
  const recipient = mintToFields(parseAddress(a.recipient)!);
  return {
    circuit: 'valid_spend',
    proof: Buffer.from(a.proof, 'hex'),
    publicInputs: [
      BigInt('0x' + a.merkle_root),
      BigInt('0x' + a.nullifier),
      mintLo,
      mintHi,
      BigInt(a.amount),
      recipient.mintHi,
      recipient.mintLo,
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
    circuit: 'valid_join_split',
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
  if (name === 'settle_batch') {
    const a = args as Args<'settle_batch'>;
    const market = state.markets.get(a.market_id);
    const feeOwner = state.vault?.fee_owner_commitment;
    return a.matches.map((m) => (market && feeOwner ? validMatchJob(market, feeOwner, m) : undefined));
  }
  return [];
}

/** One verdict per job, in order. */
export async function verifyJobs(verifier: LedgerProofVerifier, jobs: ProofJob[]): Promise<boolean[]> {
  const circuit = jobs[0]?.circuit;
  // Every instruction's proofs are of one circuit, so one batch covers them.
  if (jobs.length > 1 && verifier.verifyBatch && jobs.every((j) => j.circuit === circuit))
    return verifier.verifyBatch(circuit!, jobs);
  return Promise.all(jobs.map((j) => verifier.verify(j.circuit, j.proof, j.publicInputs)));
}
