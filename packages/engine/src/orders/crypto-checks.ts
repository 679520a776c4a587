/**
 * The cryptographic checks of order intake, run in the verifier workers (batched there): an
 * order's opening (1006), Ed25519 signature (1102), root window (1010, cheap, here) and
 * VALID_INPUT v2 proof (1011) against [use_tag, merkle_root, nullifier], the use tag of this
 * order's own terms (so a proof made for another order fails), reported in the spec's order; a
 * cancel's signature (1102). Worker failures map to the venue's codes: at capacity 1401, a
 * crashed or closed verifier 5001.
 */
import {
  isGroth16Error,
  marketToFields,
  orderIdToField,
  type OrderTerms,
  VerifierCapacityError,
  type OrderCheckItem,
  type OrderCheckOutcome,
  type OrderCheckStep,
} from '@nightjar/crypto';
import {
  encodeCancelBody,
  fieldToHex,
  hexToBytes,
  OPENING_MISMATCH,
  parseAddress,
  runsBefore,
  SIGNATURE_INVALID,
  signingDigest,
  VenueError,
  type CancelSigningFields,
  type ScreenedOrder,
  type StepFailure,
  type ValidatedOrder,
} from '@nightjar/protocol';

/** What intake learns of an order's note from its proof step. */
export interface VerifiedNote {
  /** 64 hex: Poseidon(5, commitment, inner). */
  nullifier: string;
  /** 64 hex: the note's use tag for this order (DESIGN 3). */
  useTag: string;
}

/** The fields of an order (a validated one, or a place body) that its digest binds. */
export type DigestFields = Pick<ValidatedOrder, 'side' | 'amount' | 'expiry_slot' | 'order_id'> & {
  /** Each default 0, as the canonical body reads an absent one. */
  price_limit?: bigint;
  min_fill_size?: bigint;
};

/** The order digest's terms of an order in market `marketId` (Base58), DESIGN 3. */
export function orderTermsOf(o: DigestFields, marketId: string): OrderTerms {
  const market = parseAddress(marketId);
  if (market === undefined) throw new Error(`market id ${marketId} is not Base58 of 32 bytes`);
  return {
    ...marketToFields(market),
    side: o.side === 'bid' ? 0 : 1,
    amount: o.amount,
    priceLimit: o.price_limit ?? 0n,
    minFillSize: o.min_fill_size ?? 0n,
    expirySlot: o.expiry_slot,
    orderId: orderIdToField(hexToBytes(o.order_id)),
  };
}

/** What the checks need of the venue (a narrow view of the intake's dependencies). */
export interface CryptoCheckDeps {
  /** Is `root` in the shard's recent-root window (and the shard healthy)? */
  isRecentRoot(treeId: number, rootHex: string): boolean;
  /** The cryptographic intake steps of one order, run off the main thread in the verifier workers. */
  checkOrder(check: OrderCheckItem): Promise<OrderCheckOutcome>;
}

const STEP_ERRORS: Record<OrderCheckStep, () => VenueError> = {
  opening: () => new VenueError(1006, OPENING_MISMATCH),
  signature: () => new VenueError(1102, SIGNATURE_INVALID),
  proof: () => new VenueError(1011),
};

export class CryptoChecks {
  constructor(private readonly deps: CryptoCheckDeps) {}

  /** Runs one check in the verifier workers, mapping their failures to the venue's codes. */
  private async runCheck(check: OrderCheckItem): Promise<OrderCheckOutcome> {
    try {
      return await this.deps.checkOrder(check);
    } catch (err) {
      if (err instanceof VerifierCapacityError)
        throw new VenueError(1401, 'venue at capacity; retry shortly', { retryAfterSeconds: 1 });
      // A crashed or closed verifier is a subsystem outage, not the caller's fault.
      if (isGroth16Error(err)) throw new VenueError(5001, 'proof verification is unavailable; retry shortly');
      throw err;
    }
  }

  /**
   * The cryptographic steps of a screened order, as one worker job: the opening (1006) always,
   * the signature (1102) when it comes before the first cheap failure, the root window (1010,
   * cheap, here) and the proof (1011) when nothing failed, against this order's terms in market
   * `marketId`. Reports the first failure in the spec's order; on success returns the note's
   * nullifier and use tag.
   */
  async verifyOrder(screened: ScreenedOrder, marketId: string): Promise<VerifiedNote> {
    const { order: o, mint } = screened;
    let failure: StepFailure | undefined = screened.failure;
    if (failure === undefined && !this.deps.isRecentRoot(o.tree_id, o.merkle_root)) {
      failure = {
        step: 'proof_root',
        code: 1010,
        message: 'merkle_root is not in the shard’s recent-root window; re-prove and resubmit',
      };
    }
    const outcome = await this.runCheck({
      note: {
        ownerCommitment: hexToBytes(o.owner_commitment),
        innerHash: hexToBytes(o.note_inner_hash),
        mint,
        amount: o.note_amount,
        commitment: hexToBytes(o.note_commitment),
      },
      opening: true,
      ...(runsBefore('signature', failure)
        ? {
            signature: {
              publicKey: hexToBytes(o.trading_key),
              digest: o.digest,
              signature: hexToBytes(o.trading_key_signature),
            },
          }
        : {}),
      ...(failure === undefined
        ? {
            proof: {
              proof: hexToBytes(o.valid_input_proof),
              merkleRoot: hexToBytes(o.merkle_root),
              order: orderTermsOf(o, marketId),
            },
          }
        : {}),
    });
    if (!outcome.ok) throw STEP_ERRORS[outcome.failed]();
    if (failure !== undefined) throw new VenueError(failure.code, failure.message);
    return { nullifier: fieldToHex(outcome.nullifier!), useTag: fieldToHex(outcome.useTag!) };
  }

  /** 1102 for a cancel body (a cancel or a modify's), verified in the workers. */
  async verifyCancel(fields: CancelSigningFields, signatureHex: string): Promise<void> {
    const outcome = await this.runCheck({
      signature: {
        publicKey: hexToBytes(fields.trading_key),
        digest: signingDigest(encodeCancelBody(fields)),
        signature: hexToBytes(signatureHex),
      },
    });
    if (!outcome.ok) throw new VenueError(1102, 'cancel signature did not verify');
  }
}
