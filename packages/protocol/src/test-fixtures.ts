/** Test-only helpers: a market, a context whose crypto hooks are stand-ins, and signed orders. */
import { createHash } from 'node:crypto';
import type { PlaceOrderBody } from './bodies.js';
import { encodeOrderBody, orderSigningFields, signCanonical } from './canonical.js';
import { requiredCollateral } from './economics.js';
import { ed25519PublicKey } from './ed25519.js';
import { addressToBase58, bytesToHex, FIELD_MODULUS, parseAddress } from './encoding.js';
import type { Instrument } from './instrument.js';
import type { OrderValidationContext } from './validate-order.js';
import { vectorSeed } from './vectors.js';

const mint = (label: string) => addressToBase58(createHash('sha256').update(label).digest());

export const TEST_MARKET: Instrument = {
  symbol: 'SOL-USDC',
  market_id: mint('market'),
  base_mint: mint('base'),
  quote_mint: mint('quote'),
  base_decimals: 9,
  quote_decimals: 6,
  price_scale: 1_000_000_000n,
  tick_size: 1_000n,
  min_order_size: 1_000_000n,
  fee_bps: 10n,
  trading_enabled: true,
};
export const TEST_SESSION = 'ab'.repeat(32);
export const TEST_SEED = vectorSeed('fixture-key');
export const LOW_ORDER_VIEWING_KEY = '00'.repeat(32);

/** Stand-in for Poseidon: any injective-enough function works for testing the intake order. */
export function fakeDeriveCommitment(input: {
  ownerCommitment: string;
  noteInnerHash: string;
  mint: Uint8Array;
  amount: bigint;
}): string {
  const h = createHash('sha256')
    .update(input.ownerCommitment)
    .update(input.noteInnerHash)
    .update(input.mint)
    .update(input.amount.toString())
    .digest('hex');
  return (BigInt('0x' + h) % FIELD_MODULUS).toString(16).padStart(64, '0');
}

export function testContext(overrides: Partial<OrderValidationContext> = {}): OrderValidationContext {
  return {
    instrument: (symbol) => (symbol === TEST_MARKET.symbol ? TEST_MARKET : undefined),
    currentSlot: 1_000n,
    numTrees: 4,
    deriveNoteCommitment: fakeDeriveCommitment,
    isContributoryViewingKey: (key) => !key.every((b) => b === 0),
    ...overrides,
  };
}

/**
 * A valid signed bid for {@link TEST_MARKET} at slot 1000; `overrides` change fields before the
 * commitment is derived and the body signed. `raw` fields are applied after signing (to break it).
 */
export function signedOrderBody(
  overrides: Partial<PlaceOrderBody> = {},
  seed: Uint8Array = TEST_SEED,
): PlaceOrderBody {
  const base: PlaceOrderBody = {
    symbol: 'SOL-USDC',
    side: 'bid',
    order_type: 'limit',
    amount: 2_000_000_000n,
    price_limit: 150_000_000n,
    expiry_slot: 1_500n,
    order_id: '0123456789abcdef0123456789abcdef',
    arrival_nonce: 1n,
    note_commitment: '',
    owner_commitment: '11'.repeat(32),
    note_inner_hash: '22'.repeat(32),
    merkle_root: '03'.repeat(32),
    valid_input_proof: '44'.repeat(256),
    viewing_pubkey: '55'.repeat(32),
    session_id: TEST_SESSION,
    trading_key: bytesToHex(ed25519PublicKey(seed)),
    trading_key_signature: '',
    ...overrides,
  };
  const market = TEST_MARKET;
  const noteMint = base.side === 'bid' ? market.quote_mint : market.base_mint;
  const amount =
    base.collateral_amount ?? requiredCollateral(base.side, base.amount, base.price_limit ?? 0n, market);
  if (overrides.note_commitment === undefined) {
    base.note_commitment = fakeDeriveCommitment({
      ownerCommitment: base.owner_commitment,
      noteInnerHash: base.note_inner_hash,
      mint: parseAddress(noteMint)!,
      amount,
    });
  }
  if (overrides.trading_key_signature === undefined) {
    base.trading_key_signature = signCanonical(seed, encodeOrderBody(orderSigningFields(base)));
  }
  return base;
}
