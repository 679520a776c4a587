/**
 * Builds the signing test vectors from fixed keys. `scripts/generate-vectors.ts` writes them to
 * `vectors/`; tests rebuild them and compare, so any change to the canonical bytes shows up.
 */
import { createHash } from 'node:crypto';
import type { PlaceOrderBody } from './bodies.js';
import {
  encodeCancelBody,
  encodeOrderBody,
  modifyCancelFields,
  orderSigningFields,
  signCanonical,
  signingDigest,
  type CancelSigningFields,
} from './canonical.js';
import { ed25519PublicKey } from './ed25519.js';
import { bytesToHex, U64_MAX } from './encoding.js';

export function vectorSeed(label: string): Uint8Array {
  return Uint8Array.from(createHash('sha256').update(`nightjar/vectors/${label}`).digest());
}
function fixedHex(label: string, bytes: number): string {
  return createHash('sha256')
    .update(`nightjar/vectors/value/${label}`)
    .digest('hex')
    .slice(0, bytes * 2);
}
/** A fixed field element: 31 bytes of hash, so it is always below r. */
function fixedField(label: string): string {
  return '00' + fixedHex(label, 31);
}

export interface OrderVector {
  name: string;
  seed: string;
  body: PlaceOrderBody;
  canonical_hex: string;
  digest_hex: string;
}
export interface CancelVector {
  name: string;
  seed: string;
  order_id: string;
  body: { trading_key: string; cancel_nonce: string; session_id: string; trading_key_signature: string };
  canonical_hex: string;
  digest_hex: string;
}
export interface ModifyVector {
  name: string;
  seed: string;
  old_order_id: string;
  body: { cancel_signature: string; cancel_nonce: string; replacement: PlaceOrderBody };
  cancel_canonical_hex: string;
  cancel_digest_hex: string;
  replacement_canonical_hex: string;
  replacement_digest_hex: string;
}
export interface SigningVectors {
  description: string;
  orders: OrderVector[];
  cancels: CancelVector[];
  modifies: ModifyVector[];
}

const SESSION = fixedHex('session', 32);

type OrderSpec = Pick<
  PlaceOrderBody,
  'symbol' | 'side' | 'order_type' | 'amount' | 'expiry_slot' | 'arrival_nonce'
> &
  Partial<Pick<PlaceOrderBody, 'price_limit' | 'min_fill_size' | 'collateral_amount' | 'tree_id'>>;

function signedOrder(name: string, keyLabel: string, spec: OrderSpec): OrderVector {
  const seed = vectorSeed(keyLabel);
  const unsigned: PlaceOrderBody = {
    ...spec,
    order_id: fixedHex(`${name}/order_id`, 16),
    note_commitment: fixedField(`${name}/note_commitment`),
    owner_commitment: fixedField(`${name}/owner_commitment`),
    note_inner_hash: fixedField(`${name}/note_inner_hash`),
    merkle_root: fixedField(`${name}/merkle_root`),
    valid_input_proof: fixedHex(`${name}/proof`, 32).repeat(8),
    viewing_pubkey: fixedHex(`${name}/viewing_pubkey`, 32),
    session_id: SESSION,
    trading_key: bytesToHex(ed25519PublicKey(seed)),
    trading_key_signature: '',
  };
  const canonical = encodeOrderBody(orderSigningFields(unsigned));
  return {
    name,
    seed: bytesToHex(seed),
    body: { ...unsigned, trading_key_signature: signCanonical(seed, canonical) },
    canonical_hex: bytesToHex(canonical),
    digest_hex: bytesToHex(signingDigest(canonical)),
  };
}

function signedCancel(name: string, keyLabel: string, orderId: string, nonce: bigint): CancelVector {
  const seed = vectorSeed(keyLabel);
  const fields: CancelSigningFields = {
    order_id: orderId,
    trading_key: bytesToHex(ed25519PublicKey(seed)),
    cancel_nonce: nonce,
    session_id: SESSION,
  };
  const canonical = encodeCancelBody(fields);
  return {
    name,
    seed: bytesToHex(seed),
    order_id: orderId,
    body: {
      trading_key: fields.trading_key,
      cancel_nonce: nonce.toString(),
      session_id: SESSION,
      trading_key_signature: signCanonical(seed, canonical),
    },
    canonical_hex: bytesToHex(canonical),
    digest_hex: bytesToHex(signingDigest(canonical)),
  };
}

/** The orders the vectors sign: every order type and side, the optional fields, and the u64 maxima. */
const ORDER_CASES: readonly { name: string; key: string; spec: OrderSpec }[] = [
  {
    name: 'bid-limit',
    key: 'key-a',
    spec: {
      symbol: 'SOL-USDC',
      side: 'bid',
      order_type: 'limit',
      amount: 2_500_000_000n,
      price_limit: 150_250_000n,
      expiry_slot: 1_000_500n,
      arrival_nonce: 1n,
    },
  },
  {
    name: 'ask-limit-min-fill',
    key: 'key-a',
    spec: {
      symbol: 'SOL-USDC',
      side: 'ask',
      order_type: 'limit',
      amount: 1_000_000_000n,
      price_limit: 151_000_000n,
      min_fill_size: 250_000_000n,
      expiry_slot: 1_000_600n,
      arrival_nonce: 2n,
      collateral_amount: 1_500_000_000n,
    },
  },
  {
    name: 'bid-ioc',
    key: 'key-b',
    spec: {
      symbol: 'ETH-USDC',
      side: 'bid',
      order_type: 'ioc',
      amount: 10n ** 9n,
      price_limit: 3_000_000_000n,
      expiry_slot: 77n,
      arrival_nonce: 0n,
      tree_id: 3,
    },
  },
  {
    name: 'ask-fok-all-or-none',
    key: 'key-b',
    spec: {
      symbol: 'ETH-USDC',
      side: 'ask',
      order_type: 'fok',
      amount: 42n,
      price_limit: 0n,
      min_fill_size: 42n,
      expiry_slot: 4_500n,
      arrival_nonce: 9n,
    },
  },
  {
    name: 'bid-fok',
    key: 'key-c',
    spec: {
      symbol: 'BTC-USDC',
      side: 'bid',
      order_type: 'fok',
      amount: 1n,
      price_limit: 1n,
      expiry_slot: 21n,
      arrival_nonce: 1n,
    },
  },
  {
    name: 'ask-ioc-max-values',
    key: 'key-c',
    spec: {
      symbol: 'ABCDEFGHIJKLMNOP-QRSTUVWXYZ01234',
      side: 'ask',
      order_type: 'ioc',
      amount: U64_MAX,
      price_limit: U64_MAX,
      min_fill_size: U64_MAX,
      expiry_slot: U64_MAX,
      arrival_nonce: U64_MAX,
      collateral_amount: U64_MAX,
    },
  },
];

/** A modify: the cancel of `oldOrderId`, signed with `keyLabel` and bound to its signed replacement. */
function signedModify(
  name: string,
  keyLabel: string,
  oldOrderId: string,
  cancelNonce: bigint,
  replacement: OrderVector,
): ModifyVector {
  const seed = vectorSeed(keyLabel);
  const cancelCanonical = encodeCancelBody(modifyCancelFields(oldOrderId, cancelNonce, replacement.body));
  return {
    name,
    seed: bytesToHex(seed),
    old_order_id: oldOrderId,
    body: {
      cancel_signature: signCanonical(seed, cancelCanonical),
      cancel_nonce: cancelNonce.toString(),
      replacement: replacement.body,
    },
    cancel_canonical_hex: bytesToHex(cancelCanonical),
    cancel_digest_hex: bytesToHex(signingDigest(cancelCanonical)),
    replacement_canonical_hex: replacement.canonical_hex,
    replacement_digest_hex: replacement.digest_hex,
  };
}

export function buildSigningVectors(): SigningVectors {
  const orders = ORDER_CASES.map((c) => signedOrder(c.name, c.key, c.spec));
  const cancels = [
    signedCancel('cancel-first', 'key-a', orders[0]!.body.order_id, 0n),
    signedCancel('cancel-later', 'key-b', orders[2]!.body.order_id, 123_456_789n),
    signedCancel('cancel-max-nonce', 'key-c', orders[5]!.body.order_id, U64_MAX),
  ];
  const replacement = signedOrder('modify-replacement', 'key-a', {
    symbol: 'SOL-USDC',
    side: 'bid',
    order_type: 'limit',
    amount: 2_500_000_000n,
    price_limit: 149_000_000n,
    expiry_slot: 1_000_700n,
    arrival_nonce: 3n,
  });
  const modifies = [signedModify('modify-reprice', 'key-a', orders[0]!.body.order_id, 1n, replacement)];
  return {
    description:
      'Nightjar signing vectors (DESIGN.md section 2). seed = Ed25519 private key (RFC 8032 seed); signatures are over SHA-256(canonical body). Integers are exact JSON integers: parse them losslessly.',
    orders,
    cancels,
    modifies,
  };
}
