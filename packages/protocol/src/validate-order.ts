/**
 * Place-order intake validation in the spec's order (Endpoints, note 2). The table below is the
 * single statement of that order; this module runs the synchronous steps and the engine runs the
 * rest (root window, proof, session, id, nonce, rate limit) in the same order after it.
 */
import { placeOrderCodec, type PlaceOrderBody } from './bodies.js';
import { encodeOrderBody, orderSigningFields, signingDigest, type OrderSigningFields } from './canonical.js';
import { requiredCollateral } from './economics.js';
import { ed25519VerifyStrict } from './ed25519.js';
import { hexToBytes, parseAddress, U64_MAX } from './encoding.js';
import type { ErrorCode } from './errors.js';
import type { Instrument } from './instrument.js';
import { MAX_ORDER_LIFETIME_SLOTS, SETTLEMENT_BUFFER_SLOTS } from './limits.js';
import { parseBody, type ParseResult } from './parse-body.js';

export const INTAKE_CHECKS = [
  { step: 'well_formed', code: 1001 },
  { step: 'amount_minimum', code: 1004 },
  { step: 'bid_price', code: 1005 },
  { step: 'opening', code: 1006 },
  { step: 'collateral', code: 1003 },
  { step: 'tick', code: 1009 },
  { step: 'signature', code: 1102 },
  { step: 'viewing_key', code: 1008 },
  { step: 'expiry_lifetime', code: 1007 },
  { step: 'expiry_buffer', code: 1012 },
  { step: 'proof_root', code: 1010 },
  { step: 'proof', code: 1011 },
  { step: 'session', code: 1205 },
  { step: 'order_id', code: 1201 },
  { step: 'nonce', code: 1202 },
  { step: 'rate_limit', code: 1401 },
] as const satisfies readonly { step: string; code: ErrorCode }[];
export type IntakeStep = (typeof INTAKE_CHECKS)[number]['step'];

/** A place-order body that passed every synchronous intake step, with defaults applied. */
export interface ValidatedOrder extends OrderSigningFields {
  collateral_amount: bigint | undefined;
  owner_commitment: string;
  note_inner_hash: string;
  merkle_root: string;
  valid_input_proof: string;
  tree_id: number;
  trading_key: string;
  trading_key_signature: string;
  /** Collateral mint (quote for a bid, base for an ask), Base58 and raw. */
  collateral_mint: string;
  /** The note's value: `collateral_amount` when given, else the required collateral. */
  note_amount: bigint;
  required_collateral: bigint;
  /** The 201-byte canonical body and its SHA-256, kept for idempotency and audit. */
  canonical_body: Uint8Array;
  digest: Uint8Array;
}

export interface OrderValidationContext {
  /** The market for a symbol, or undefined when no such market is listed (404 1301). */
  instrument(symbol: string): Instrument | undefined;
  currentSlot: bigint;
  /** Number of tree shards; a larger `tree_id` is malformed (1001). */
  numTrees: number;
  settlementBufferSlots?: bigint;
  maxLifetimeSlots?: bigint;
  /** Re-derives the note commitment (hex) from the opening (crypto package). */
  deriveNoteCommitment(input: {
    ownerCommitment: string;
    noteInnerHash: string;
    mint: Uint8Array;
    amount: bigint;
  }): string;
  /** X25519 contributory check (crypto package). */
  isContributoryViewingKey(publicKey: Uint8Array): boolean;
}

export type OrderValidationResult =
  { ok: true; order: ValidatedOrder } | { ok: false; code: ErrorCode; message: string };

/** A failed intake step, named so its place in {@link INTAKE_CHECKS} decides what is reported. */
export interface StepFailure {
  step: IntakeStep;
  code: ErrorCode;
  message: string;
}

/**
 * A body that passed every step that comes before the first cryptographic one, with the cheap
 * steps after it already run: `failure` is the first of those that failed (1003, 1009, 1008,
 * 1007, 1012), if any. The cryptographic steps (`opening` 1006, `signature` 1102, and the
 * engine's `proof` 1011) are left to the caller, who runs only those that come before `failure`.
 */
export interface ScreenedOrder {
  ok: true;
  order: ValidatedOrder;
  failure: StepFailure | undefined;
  /** The collateral mint as bytes (the opening is derived with it). */
  mint: Uint8Array;
}

export type ScreenContext = Omit<OrderValidationContext, 'deriveNoteCommitment'>;

export const OPENING_MISMATCH = 'note opening does not re-derive note_commitment';
export const SIGNATURE_INVALID = 'trading-key signature did not verify';

const STEP_INDEX = new Map<IntakeStep, number>(INTAKE_CHECKS.map((c, i) => [c.step, i]));

/** True when `step` comes before `failure` in the spec's order (always, when nothing failed). */
export function runsBefore(step: IntakeStep, failure: StepFailure | undefined): boolean {
  return failure === undefined || STEP_INDEX.get(step)! < STEP_INDEX.get(failure.step)!;
}

function reject(code: ErrorCode, message: string): { ok: false; code: ErrorCode; message: string } {
  return { ok: false, code, message };
}

/** Parses the raw JSON body into a {@link PlaceOrderBody} or a 1001 with the offending field named. */
export function parsePlaceOrderBody(raw: unknown): ParseResult<PlaceOrderBody> {
  const parsed = parseBody(placeOrderCodec, raw);
  if (!parsed.ok) return parsed;
  const body = parsed.value;
  if (body.side === 'bid' && body.price_limit === undefined) {
    return { ok: false, code: 1001, message: 'price_limit: is required for a bid' };
  }
  if (body.min_fill_size !== undefined && body.min_fill_size > body.amount) {
    return { ok: false, code: 1001, message: 'min_fill_size: must not exceed amount' };
  }
  return parsed;
}

/**
 * Runs every intake step that needs no cryptography, in the spec's order, and never throws on any
 * input. Steps before `opening` end the screen at once; the cheap steps after it are recorded
 * (the first failure only) so that the caller can run the cryptographic steps that precede it.
 */
export function screenPlaceOrder(
  raw: unknown,
  ctx: ScreenContext,
): ScreenedOrder | { ok: false; code: ErrorCode; message: string } {
  const parsed = parsePlaceOrderBody(raw);
  if (!parsed.ok) return parsed;
  const body = parsed.value;
  const market = ctx.instrument(body.symbol);
  if (market === undefined) return reject(1301, 'no such instrument');
  const treeId = body.tree_id ?? 0;
  if (treeId >= ctx.numTrees) return reject(1001, `tree_id: must be below ${ctx.numTrees}`);
  const mintAddress = body.side === 'bid' ? market.quote_mint : market.base_mint;
  const mint = parseAddress(mintAddress);
  if (mint === undefined) throw new Error(`instrument ${market.symbol} has an invalid mint`);

  const fields = orderSigningFields(body);
  const minimum = market.min_order_size > 1n ? market.min_order_size : 1n;
  if (fields.amount < minimum) return reject(1004, `amount below market minimum ${minimum}`);
  if (fields.side === 'bid' && fields.price_limit === 0n) return reject(1005, 'bid with zero price limit');

  const required = requiredCollateral(fields.side, fields.amount, fields.price_limit, market);
  const noteAmount = body.collateral_amount ?? required;
  // No note can hold more than u64: the collateral cannot cover this order whatever the opening.
  if (noteAmount > U64_MAX)
    return reject(1003, `collateral below nominal cost plus fee (required ${required})`);

  const failure = firstCheapFailure(fields, noteAmount, required, market, body.viewing_pubkey, ctx);
  const canonical = encodeOrderBody(fields);
  return {
    ok: true,
    mint,
    failure,
    order: {
      ...fields,
      collateral_amount: body.collateral_amount,
      owner_commitment: body.owner_commitment,
      note_inner_hash: body.note_inner_hash,
      merkle_root: body.merkle_root,
      valid_input_proof: body.valid_input_proof,
      tree_id: treeId,
      trading_key: body.trading_key,
      trading_key_signature: body.trading_key_signature,
      collateral_mint: mintAddress,
      note_amount: noteAmount,
      required_collateral: required,
      canonical_body: canonical,
      digest: signingDigest(canonical),
    },
  };
}

/** The cheap steps between `opening` and `proof_root`, in order: the first that fails. */
function firstCheapFailure(
  fields: OrderSigningFields,
  noteAmount: bigint,
  required: bigint,
  market: Instrument,
  viewingPubkey: string,
  ctx: ScreenContext,
): StepFailure | undefined {
  if (noteAmount < required) {
    return {
      step: 'collateral',
      code: 1003,
      message: `collateral below nominal cost plus fee (required ${required})`,
    };
  }
  if (fields.price_limit !== 0n && fields.price_limit % market.tick_size !== 0n) {
    return {
      step: 'tick',
      code: 1009,
      message: `price_limit is not a multiple of tick_size ${market.tick_size}`,
    };
  }
  // (`signature` sits here in the spec's order; the caller runs it.)
  if (!ctx.isContributoryViewingKey(hexToBytes(viewingPubkey))) {
    return { step: 'viewing_key', code: 1008, message: 'viewing key is low-order or non-contributory' };
  }
  const maxLifetime = ctx.maxLifetimeSlots ?? MAX_ORDER_LIFETIME_SLOTS;
  if (fields.expiry_slot > ctx.currentSlot + maxLifetime) {
    return {
      step: 'expiry_lifetime',
      code: 1007,
      message: `expiry_slot exceeds the maximum lifetime of ${maxLifetime} slots`,
    };
  }
  const buffer = ctx.settlementBufferSlots ?? SETTLEMENT_BUFFER_SLOTS;
  if (fields.expiry_slot <= ctx.currentSlot + buffer) {
    return {
      step: 'expiry_buffer',
      code: 1012,
      message: `expiry_slot must be beyond slot ${ctx.currentSlot + buffer}`,
    };
  }
  return undefined;
}

/**
 * Every synchronous intake step, from `well_formed` to `expiry_buffer`, in one call: the screen,
 * then the opening and signature checks inline. Reports the first failure with its spec code and
 * never throws on any input. (The engine runs the same steps with the cryptographic ones in its
 * verifier workers.)
 */
export function validatePlaceOrder(raw: unknown, ctx: OrderValidationContext): OrderValidationResult {
  const screened = screenPlaceOrder(raw, ctx);
  if (!screened.ok) return screened;
  const { order, failure } = screened;
  const derived = ctx.deriveNoteCommitment({
    ownerCommitment: order.owner_commitment,
    noteInnerHash: order.note_inner_hash,
    mint: screened.mint,
    amount: order.note_amount,
  });
  if (derived !== order.note_commitment) return reject(1006, OPENING_MISMATCH);
  if (
    runsBefore('signature', failure) &&
    !ed25519VerifyStrict(hexToBytes(order.trading_key), order.digest, hexToBytes(order.trading_key_signature))
  ) {
    return reject(1102, SIGNATURE_INVALID);
  }
  if (failure !== undefined) return reject(failure.code, failure.message);
  return { ok: true, order };
}
