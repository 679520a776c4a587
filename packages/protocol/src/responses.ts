/**
 * Response bodies as codecs: the OpenAPI document is generated from them and clients (the SDK)
 * may parse what the venue returns with the same definitions.
 */
import { ORDER_TYPES, SIDES, orderIdCodec, symbolCodec } from './bodies.js';
import { LEAVES_PAGE_CAP, TREE_DEPTH } from './limits.js';
import {
  arrayOf,
  base58Address,
  boolean,
  described,
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

const base58 = base58Address();
const unixMs = u64('Unix milliseconds.');

export const ORDER_STATUSES = ['empty', 'pending', 'pending_settlement', 'expired', 'cancelled'] as const;
export type OrderStatusValue = (typeof ORDER_STATUSES)[number];

export const placeOrderResponseCodec = object({
  order_id: required(orderIdCodec),
  status: required(literal(['accepted'] as const)),
  arrival_slot: required(u64('Slot stamped on arrival; frozen for the order’s life.')),
});
export type PlaceOrderResponse = InferObject<typeof placeOrderResponseCodec.props>;

export const orderStatusCodec = object({
  order_id: required(orderIdCodec),
  symbol: required(symbolCodec),
  side: required(literal(SIDES)),
  order_type: required(literal(ORDER_TYPES)),
  status: required(literal(ORDER_STATUSES)),
  amount: required(u64()),
  filled_quantity: required(u64()),
  price_limit: required(u64()),
  expiry_slot: required(u64()),
  arrival_slot: required(u64()),
});
export type OrderStatusResponse = InferObject<typeof orderStatusCodec.props>;

export const cancelResponseCodec = object({
  order_id: required(orderIdCodec),
  status: required(literal(['cancelled'] as const)),
});
export type CancelResponse = InferObject<typeof cancelResponseCodec.props>;

export const modifyResponseCodec = object(
  {
    order_id: required(orderIdCodec),
    status: required(literal(['accepted'] as const)),
    arrival_slot: required(u64()),
    replaced_order_id: required(orderIdCodec),
  },
  'The replacement is booked; `replaced_order_id` is the old id (equal to `order_id` when reclaimed).',
);
export type ModifyResponse = InferObject<typeof modifyResponseCodec.props>;

export const tokenResponseCodec = object({
  access_token: required(text({ minLength: 1, maxLength: 512 })),
  token_type: required(literal(['Bearer'] as const)),
  expires_in: required(smallUint(3600, 'Lifetime in seconds from issue; at most one hour.')),
  account_id: required(text({ minLength: 1, maxLength: 64 })),
});
export type TokenResponse = InferObject<typeof tokenResponseCodec.props>;

export const revokeResponseCodec = object({ revoked: required(boolean()) });
export type RevokeResponse = InferObject<typeof revokeResponseCodec.props>;

export const timeResponseCodec = object({ slot: required(u64()), unix_ms: required(unixMs) });
export type TimeResponse = InferObject<typeof timeResponseCodec.props>;

export const healthResponseCodec = object({
  status: required(literal(['ok'] as const)),
  uptime_ms: required(u64('Process uptime in milliseconds.')),
});
export type HealthResponse = InferObject<typeof healthResponseCodec.props>;

export const systemStatusCodec = object({
  matching: required(literal(['running', 'stopped'] as const)),
  settlement: required(literal(['wired', 'not_wired', 'degraded'] as const)),
  ledger: required(literal(['connected', 'unavailable'] as const)),
  trading: required(literal(['open', 'paused'] as const)),
  draining: required(boolean()),
  slot: required(u64()),
});
export type SystemStatusResponse = InferObject<typeof systemStatusCodec.props>;

export const circuitKeysCodec = object(
  {
    dev_only: required(
      boolean('True: the keys of the one-machine dev ceremony, whose operator could forge proofs.'),
    ),
    valid_input_vkey_sha256: required(
      hexBytes(32, {
        description:
          "VALID_INPUT v2's key: what intake checks each order's note proof with, and the ledger each lock's.",
      }),
    ),
    valid_spend_vkey_sha256: required(
      hexBytes(32, {
        description:
          "VALID_SPEND v2's key: what the ledger checks withdrawals with (any amount of one note, the rest to a change note bound with its shard and memo; VALID_SPEND v1 is retired).",
      }),
    ),
    valid_lock_vkey_sha256: optional(
      hexBytes(32, {
        description:
          "VALID_LOCK's key: what the ledger checks the lock of a settlement's change note with; absent for a key set without VALID_LOCK.",
      }),
    ),
    valid_match_vkey_sha256: optional(
      hexBytes(32, {
        description:
          "VALID_MATCH v2's key: what the ledger checks each match proof with; absent for a key set without it.",
      }),
    ),
    valid_join_split_vkey_sha256: optional(
      hexBytes(32, {
        description:
          "VALID_JOIN_SPLIT v2's key: what the ledger checks note splits and merges with; absent for a key set without it.",
      }),
    ),
  },
  'SHA-256 of each Groth16 verification key file the venue verifies with (as pinned by the ceremony manifest).',
);
export type CircuitKeysInfo = InferObject<typeof circuitKeysCodec.props>;

export const infoResponseCodec = object({
  boot_session_id: required(hexBytes(32)),
  api_version: required(text({ maxLength: 16 })),
  order_domain: required(text({ maxLength: 32 })),
  cancel_domain: required(text({ maxLength: 32 })),
  tee_keys: required(arrayOf(base58, { maxItems: 64, description: 'Ordered TEE signer set (Base58).' })),
  signer_set_sha256: required(hexBytes(32)),
  num_trees: required(smallUint(256)),
  settlement_buffer_slots: required(u64()),
  max_order_lifetime_slots: required(u64()),
  leaves_page_cap: required(smallUint(LEAVES_PAGE_CAP)),
  attestation: required(
    object(
      {
        platform: required(literal(['simulated', 'dstack'] as const)),
        app_id_sha256: required(hexBytes(32)),
        instance_id_sha256: required(hexBytes(32)),
        compose_hash: required(hexBytes(32)),
      },
      'The engine identity its transport attestation binds (GET /transport-attestation).',
    ),
  ),
  circuit_keys: required(circuitKeysCodec),
});
export type InfoResponse = InferObject<typeof infoResponseCodec.props>;

export const instrumentCodec = object({
  symbol: required(symbolCodec),
  market_id: required(base58),
  base_mint: required(base58),
  quote_mint: required(base58),
  base_decimals: required(smallUint(30)),
  quote_decimals: required(smallUint(30)),
  price_scale: required(u64('Base atomic units that `price_limit` prices.')),
  tick_size: required(u64()),
  min_order_size: required(u64()),
  fee_bps: required(u64()),
  trading_enabled: required(boolean()),
  base_url: optional(
    text({
      maxLength: 2048,
      pattern: '^https://[^\\s/?#]+(/[^\\s?#]*)?$',
      description:
        "The base URL of the engine that serves this market (DESIGN 11): orders for the symbol go there, after that engine's own transport attestation.",
    }),
  ),
});
/** `GET /instruments`: a bare array (DESIGN.md section 9: lists are returned directly). */
export const instrumentListCodec = arrayOf(instrumentCodec, { maxItems: 1024 });

const siblings = arrayOf(fieldElementHex(), {
  minItems: TREE_DEPTH,
  maxItems: TREE_DEPTH,
  description: 'Leaf to root.',
});
export const treeRootCodec = object({
  tree_id: required(smallUint(255)),
  merkle_root: required(fieldElementHex()),
  leaf_count: required(u64()),
  on_chain_slot: required(u64('Slot of the last sync from chain.')),
});
export type TreeRootResponse = InferObject<typeof treeRootCodec.props>;

export const inclusionCodec = object({
  note_commitment: required(fieldElementHex()),
  leaf_index: required(u64()),
  merkle_root: required(fieldElementHex()),
  siblings: required(siblings),
});
export type InclusionResponse = InferObject<typeof inclusionCodec.props>;

export const leafCodec = object({
  leaf_index: required(u64()),
  value: required(fieldElementHex('A note commitment.')),
});
export const leavesCodec = object({
  merkle_root: required(fieldElementHex()),
  leaves: required(arrayOf(leafCodec, { maxItems: LEAVES_PAGE_CAP })),
});
export type LeavesResponse = InferObject<typeof leavesCodec.props>;

export const SETTLEMENT_STAGES = [
  'queued',
  'locking_notes',
  'proving',
  'verifying',
  'settling',
  'closing',
  'done',
  'failed',
] as const;
export const SETTLEMENT_OUTCOMES = ['pending', 'confirmed', 'rejected', 'ambiguous'] as const;
export type SettlementStage = (typeof SETTLEMENT_STAGES)[number];
export type SettlementOutcome = (typeof SETTLEMENT_OUTCOMES)[number];

export const settlementJobCodec = object({
  match_idx: required(smallUint(15)),
  match_id: required(
    text({ maxLength: 20, pattern: '^(0|[1-9][0-9]*)$', description: 'Per-market match id.' }),
  ),
  stage: required(literal(SETTLEMENT_STAGES)),
  outcome: required(literal(SETTLEMENT_OUTCOMES)),
  created_at_ms: required(unixMs),
  updated_at_ms: required(unixMs),
  lock_signatures: optional(
    arrayOf(text({ maxLength: 128 }), { maxItems: 2, description: 'Confirmed lock transactions.' }),
  ),
  settle_signature: optional(text({ maxLength: 128, description: 'Confirmed settle transaction.' })),
  reason: optional(text({ maxLength: 256 })),
});
export const settlementStatusCodec = object({
  batch_id: required(u64('Local to the running engine.')),
  market_id: required(base58),
  jobs: required(arrayOf(settlementJobCodec, { minItems: 1, maxItems: 16 })),
});
export type SettlementStatusResponse = InferObject<typeof settlementStatusCodec.props>;

/** `GET /account/orders`: a bare array of order status bodies. */
export const accountOrdersCodec = arrayOf(orderStatusCodec, { maxItems: 100_000 });

export const createdAccountCodec = object({
  account_id: required(text({ maxLength: 64 })),
  api_key: required(text({ maxLength: 256 })),
  api_secret: required(text({ maxLength: 256 })),
  passphrase: required(text({ maxLength: 256 })),
  is_admin: required(boolean()),
});
export type CreatedAccountResponse = InferObject<typeof createdAccountCodec.props>;

export const accountStateCodec = object({
  account_id: required(text({ maxLength: 64 })),
  api_key: required(text({ maxLength: 256 })),
  is_admin: required(boolean()),
  enabled: required(boolean()),
});
export type AccountStateResponse = InferObject<typeof accountStateCodec.props>;

export const drainStatusCodec = object({
  state: required(literal(['idle', 'draining', 'drained'] as const)),
  started_at_ms: optional(unixMs),
  open_orders: required(u64()),
  pending_settlements: required(u64()),
  in_flight_settlements: optional(u64('Matches whose settlement is not yet done or failed.')),
  safe_to_stop: optional(boolean()),
});
export type DrainStatusResponse = InferObject<typeof drainStatusCodec.props>;

export const settlementMetricsCodec = described<Record<string, unknown>>({
  type: 'object',
  description:
    'Bounded, privacy-preserving queue and latency telemetry: counts per stage and outcome, latency quantiles.',
  additionalProperties: true,
});
export const transparencyCodec = described<Record<string, unknown>>({
  type: 'object',
  description:
    'Public solvency snapshot (per-mint vault balances), engine identity and aggregate statistics.',
  additionalProperties: true,
});

export const transportManifestCodec = object({
  protocol_version: required(smallUint(65535)),
  transport_mode: required(smallUint(255)),
  app_id_sha256: required(hexBytes(32)),
  instance_id_sha256: required(hexBytes(32)),
  boot_session_id: required(hexBytes(32)),
  tls_spki_sha256: required(hexBytes(32)),
  signer_set_sha256: required(hexBytes(32)),
});
export const eventLogEntryCodec = object({
  imr: required(smallUint(3)),
  event_type: required(u64()),
  digest: required(text({ maxLength: 96, pattern: '^[0-9a-f]*$' })),
  event: required(text({ maxLength: 256 })),
  event_payload: required(text({ maxLength: 65536, pattern: '^[0-9a-f]*$' })),
});
const lowerHex = (maxLength: number, description?: string) =>
  text({ maxLength, pattern: '^[0-9a-f]*$', ...(description ? { description } : {}) });
const pemChain = text({ maxLength: 16384, description: 'PEM certificates, leaf first.' });
/** DCAP collateral in `@phala/dcap-qvl`'s `Collateral` shape; byte fields as hex (DESIGN.md section 9). */
export const collateralCodec = object({
  pck_crl_issuer_chain: required(pemChain),
  root_ca_crl: required(lowerHex(16384, 'DER CRL of the root CA.')),
  pck_crl: required(lowerHex(16384, 'DER CRL of the PCK platform CA.')),
  tcb_info_issuer_chain: required(pemChain),
  tcb_info: required(text({ maxLength: 65536, description: 'TCB info JSON, exactly as signed.' })),
  tcb_info_signature: required(hexBytes(64)),
  qe_identity_issuer_chain: required(pemChain),
  qe_identity: required(text({ maxLength: 65536, description: 'QE identity JSON, exactly as signed.' })),
  qe_identity_signature: required(hexBytes(64)),
});
export type CollateralBody = InferObject<typeof collateralCodec.props>;
export const transportAttestationCodec = object({
  manifest: required(transportManifestCodec),
  manifest_bytes: required(hexBytes(164)),
  quote: required(lowerHex(65536, 'DCAP quote (TDX v4).')),
  event_log: required(arrayOf(eventLogEntryCodec, { maxItems: 4096 })),
  report_data: required(hexBytes(64)),
  collateral: optional(collateralCodec),
});
export type TransportAttestationResponse = InferObject<typeof transportAttestationCodec.props>;
export type EventLogEntryBody = InferObject<typeof eventLogEntryCodec.props>;
/**
 * `GET /attestation`: a quote over SHA-512(`venue/attestation/v1` ‖ caller_data), never over the
 * caller's bytes themselves (DESIGN.md section 8); a verifier recomputes `report_data`.
 */
export const attestationCodec = object(
  {
    platform: required(literal(['simulated', 'dstack'])),
    quote: required(lowerHex(65536, 'DCAP quote (TDX v4).')),
    event_log: required(arrayOf(eventLogEntryCodec, { maxItems: 4096 })),
    caller_data: required(lowerHex(128, "The caller's `reportData` bytes (0 to 64), as received.")),
    report_data: required(
      hexBytes(64, { description: 'The quoted bytes: SHA-512("venue/attestation/v1" ‖ caller_data).' }),
    ),
    app_id: required(lowerHex(256)),
    instance_id: required(lowerHex(256)),
    compose_hash: required(hexBytes(32)),
    collateral: optional(collateralCodec),
  },
  'Hardware attestation quote plus verification data. It does not bind the TLS connection.',
);
export type AttestationResponse = InferObject<typeof attestationCodec.props>;

export const errorEnvelopeCodec = object({
  code: required(smallUint(9999)),
  message: required(text({ maxLength: 1024 })),
});
