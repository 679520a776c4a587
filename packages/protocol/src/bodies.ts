/** Request bodies the venue accepts, as codecs (parse + JSON Schema from one definition). */
import { MAX_SYMBOL_LENGTH, MAX_TREE_SHARDS } from './limits.js';
import {
  arrayOf,
  boolean,
  decimalU64String,
  decimalUintString,
  fieldElementHex,
  hexBytes,
  literal,
  object,
  optional,
  required,
  smallUint,
  text,
  u64,
  type InferObject,
} from './schema.js';

export const SIDES = ['bid', 'ask'] as const;
export const ORDER_TYPES = ['limit', 'ioc', 'fok'] as const;
export type Side = (typeof SIDES)[number];
export type OrderType = (typeof ORDER_TYPES)[number];

export const SYMBOL_PATTERN = '^[A-Z0-9]+-[A-Z0-9]+$';
export const symbolCodec = text({
  minLength: 3,
  maxLength: MAX_SYMBOL_LENGTH,
  pattern: SYMBOL_PATTERN,
  description: 'Market symbol, `<BASE>-<QUOTE>`, uppercase ASCII letters and digits, at most 32 characters.',
});
export const orderIdCodec = hexBytes(16, {
  nonZero: true,
  description: 'Client-chosen 16-byte order id, non-zero.',
});
export const hex32Codec = hexBytes(32);

export const placeOrderProps = {
  symbol: required(symbolCodec),
  side: required(literal(SIDES, '`bid` buys base, `ask` sells base.')),
  order_type: required(literal(ORDER_TYPES)),
  amount: required(u64('Size in base atomic units; must meet the market minimum.')),
  price_limit: optional(
    u64(
      'Worst acceptable price, quote atomic units per `price_scale` base units. Required and > 0 for a bid; an ask may use 0 (any price) and defaults to 0.',
    ),
  ),
  min_fill_size: optional(u64('Smallest acceptable fill; equal to `amount` for all-or-none. Default 0.')),
  expiry_slot: required(u64('Absolute chain slot at which the order expires.')),
  order_id: required(orderIdCodec),
  arrival_nonce: required(u64('Strictly increasing per trading key.')),
  note_commitment: required(fieldElementHex('Commitment of the collateral note.')),
  collateral_amount: optional(u64('Value of the note when it exceeds the required collateral.')),
  owner_commitment: required(fieldElementHex('Owner commitment of the note (secret opening).')),
  note_inner_hash: required(fieldElementHex('Inner hash of the note (secret opening).')),
  merkle_root: required(fieldElementHex('Root the input proof was built against.')),
  valid_input_proof: required(hexBytes(256, { description: 'Groth16 VALID_INPUT proof, 256 bytes.' })),
  tree_id: optional(smallUint(MAX_TREE_SHARDS - 1, 'Tree shard holding the note. Default 0.')),
  viewing_pubkey: required(hexBytes(32, { description: 'Contributory X25519 public key.' })),
  session_id: required(hexBytes(32, { description: 'Current `boot_session_id` from `GET /info`.' })),
  trading_key: required(hexBytes(32, { description: 'Ed25519 public key owning the order.' })),
  trading_key_signature: required(
    hexBytes(64, { description: 'Ed25519 signature over SHA-256 of the canonical order body.' }),
  ),
};
export const placeOrderCodec = object(placeOrderProps, 'A fully collateralised, signed order.');
/** The place-order body as parsed: u64 fields as bigint, hex lowercase, optional fields absent. */
export type PlaceOrderBody = InferObject<typeof placeOrderProps>;

export const cancelProps = {
  trading_key: required(hexBytes(32, { description: 'Ed25519 public key that placed the order.' })),
  cancel_nonce: required(decimalU64String('Strictly increasing per trading key.')),
  session_id: required(hexBytes(32, { description: 'Current `boot_session_id`.' })),
  trading_key_signature: required(
    hexBytes(64, { description: 'Ed25519 signature over the canonical cancel body.' }),
  ),
};
export const cancelCodec = object(cancelProps, 'A signed cancel.');
export type CancelBody = InferObject<typeof cancelProps>;

export const modifyProps = {
  cancel_signature: required(
    hexBytes(64, { description: 'Signature over the old order’s canonical cancel body.' }),
  ),
  cancel_nonce: required(decimalU64String()),
  replacement: required(placeOrderCodec),
};
export const modifyCodec = object(modifyProps, 'Atomic cancel-and-replace.');
export type ModifyBody = InferObject<typeof modifyProps>;

const credential = text({ minLength: 1, maxLength: 256 });
export const tokenRequestCodec = object({
  api_key: required(credential),
  api_secret: required(credential),
  passphrase: required(credential),
});
export type TokenRequest = InferObject<typeof tokenRequestCodec.props>;

export const accountSettingsCodec = object({ cancel_on_disconnect_default: required(boolean()) });
export type AccountSettings = InferObject<typeof accountSettingsCodec.props>;

export const createAccountCodec = object({
  is_admin: optional(boolean()),
  label: optional(text({ maxLength: 128, description: 'Operator note, not a secret.' })),
});
export type CreateAccountRequest = InferObject<typeof createAccountCodec.props>;

export const STREAM_CHANNELS = ['orders', 'fills', 'tree'] as const;
export type StreamChannel = (typeof STREAM_CHANNELS)[number];
export const channelsCodec = arrayOf(literal(STREAM_CHANNELS), { minItems: 1, maxItems: 3 });

/** Query and path parameters: strings on the wire, parsed with the same rules as body fields. */
export const queryParams = {
  tree_id: decimalUintString(MAX_TREE_SHARDS - 1, 'Tree shard. Default 0.'),
  note_commitment: fieldElementHex('A note commitment.'),
  leaf_index: decimalUintString(2 ** 32, 'Leaf index (half-open range bound).'),
  batch_id: decimalU64String('Settlement batch id, local to the running engine.'),
  order_id: orderIdCodec,
} as const;
