/**
 * The OpenAPI 3.1 description of the venue (`GET /openapi.json`), generated from the same codecs
 * the validators use. u64 bounds are bigint: serialise with {@link openApiJson} to keep them exact.
 */
import {
  accountSettingsCodec,
  cancelCodec,
  createAccountCodec,
  modifyCodec,
  placeOrderCodec,
  tokenRequestCodec,
} from './bodies.js';
import { ERROR_CATALOGUE, type ErrorCode } from './errors.js';
import { stringifyJson } from './json.js';
import { API_VERSION, LEAVES_PAGE_CAP, MAX_TREE_SHARDS } from './limits.js';
import * as r from './responses.js';
import type { Codec, JsonSchema } from './schema.js';

type Auth = 'public' | 'bearer' | 'admin';
interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}
interface Operation {
  summary: string;
  auth: Auth;
  body?: string;
  params?: Param[];
  ok: { status: number; schema?: string; description?: string };
  errors: ErrorCode[];
  tag: string;
}

const SCHEMAS: Record<string, Codec<unknown>> = {
  PlaceOrderRequest: placeOrderCodec,
  CancelRequest: cancelCodec,
  ModifyRequest: modifyCodec,
  TokenRequest: tokenRequestCodec,
  AccountSettings: accountSettingsCodec,
  CreateAccountRequest: createAccountCodec,
  PlaceOrderResponse: r.placeOrderResponseCodec,
  OrderStatus: r.orderStatusCodec,
  CancelResponse: r.cancelResponseCodec,
  ModifyResponse: r.modifyResponseCodec,
  TokenResponse: r.tokenResponseCodec,
  RevokeResponse: r.revokeResponseCodec,
  TimeResponse: r.timeResponseCodec,
  HealthResponse: r.healthResponseCodec,
  SystemStatus: r.systemStatusCodec,
  Info: r.infoResponseCodec,
  Instrument: r.instrumentCodec,
  InstrumentList: r.instrumentListCodec,
  TreeRoot: r.treeRootCodec,
  Inclusion: r.inclusionCodec,
  Leaves: r.leavesCodec,
  SettlementStatus: r.settlementStatusCodec,
  AccountOrders: r.accountOrdersCodec,
  CreatedAccount: r.createdAccountCodec,
  AccountState: r.accountStateCodec,
  DrainStatus: r.drainStatusCodec,
  SettlementMetrics: r.settlementMetricsCodec,
  Transparency: r.transparencyCodec,
  TransportAttestation: r.transportAttestationCodec,
  Attestation: r.attestationCodec,
  Error: r.errorEnvelopeCodec,
};

const hex = (bytes: number): JsonSchema => ({ type: 'string', pattern: `^[0-9a-fA-F]{${bytes * 2}}$` });
const uint = (max: number): JsonSchema => ({ type: 'integer', minimum: 0, maximum: max });
const orderIdParam: Param = { name: 'order_id', in: 'path', required: true, schema: hex(16) };
const treeIdParam: Param = {
  name: 'tree_id',
  in: 'query',
  required: false,
  schema: { ...uint(MAX_TREE_SHARDS - 1), default: 0 },
};
const apiKeyParam: Param = {
  name: 'api_key',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 256 },
};

const ORDER_ERRORS: ErrorCode[] = [
  1001, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1101, 1102, 1150, 1201, 1202, 1204, 1205,
  1301, 1401, 5001,
];

const PATHS: Record<string, Partial<Record<'get' | 'post' | 'put' | 'delete', Operation>>> = {
  '/auth/token': {
    post: {
      tag: 'auth',
      summary: 'Exchange account credentials for a bearer token',
      auth: 'public',
      body: 'TokenRequest',
      ok: { status: 200, schema: 'TokenResponse' },
      errors: [1000, 1001, 1101, 1150, 1401, 1402],
    },
  },
  '/auth/token/revoke': {
    post: {
      tag: 'auth',
      summary: 'Denylist the presented token immediately',
      auth: 'bearer',
      ok: { status: 200, schema: 'RevokeResponse' },
      errors: [1101, 1150],
    },
  },
  '/orders': {
    post: {
      tag: 'orders',
      summary: 'Place a signed, collateralised order',
      auth: 'bearer',
      body: 'PlaceOrderRequest',
      ok: { status: 202, schema: 'PlaceOrderResponse' },
      errors: [1000, ...ORDER_ERRORS],
    },
  },
  '/orders/{order_id}': {
    get: {
      tag: 'orders',
      summary: 'Order status (another account’s order is 404)',
      auth: 'bearer',
      params: [orderIdParam],
      ok: { status: 200, schema: 'OrderStatus' },
      errors: [1001, 1101, 1150, 1301, 1401],
    },
    delete: {
      tag: 'orders',
      summary: 'Cancel a resting order',
      auth: 'bearer',
      params: [orderIdParam],
      body: 'CancelRequest',
      ok: { status: 200, schema: 'CancelResponse' },
      errors: [1000, 1001, 1101, 1102, 1103, 1150, 1202, 1205, 1301, 1401, 5001],
    },
    put: {
      tag: 'orders',
      summary: 'Atomic cancel-and-replace; the path id is the old order',
      auth: 'bearer',
      params: [orderIdParam],
      body: 'ModifyRequest',
      ok: { status: 202, schema: 'ModifyResponse' },
      errors: [1000, 1103, 1203, ...ORDER_ERRORS],
    },
  },
  '/health': {
    get: {
      tag: 'system',
      summary: 'Liveness with process uptime',
      auth: 'public',
      ok: { status: 200, schema: 'HealthResponse' },
      errors: [],
    },
  },
  '/time': {
    get: {
      tag: 'system',
      summary: 'Current chain slot and wall-clock time',
      auth: 'public',
      ok: { status: 200, schema: 'TimeResponse' },
      errors: [5001],
    },
  },
  '/system/status': {
    get: {
      tag: 'system',
      summary: 'Trading-relevant readiness',
      auth: 'public',
      ok: { status: 200, schema: 'SystemStatus' },
      errors: [],
    },
  },
  '/info': {
    get: {
      tag: 'system',
      summary: 'Venue identity, including boot_session_id',
      auth: 'public',
      ok: { status: 200, schema: 'Info' },
      errors: [],
    },
  },
  '/transport-attestation': {
    get: {
      tag: 'attestation',
      summary: 'Quote-bound transport manifest for a fresh caller nonce',
      auth: 'public',
      params: [{ name: 'nonce', in: 'query', required: true, schema: hex(32) }],
      ok: { status: 200, schema: 'TransportAttestation' },
      errors: [1001, 1401, 5001],
    },
  },
  '/attestation': {
    get: {
      tag: 'attestation',
      summary: 'Hardware attestation quote plus verification data',
      auth: 'public',
      params: [
        {
          name: 'reportData',
          in: 'query',
          required: false,
          schema: { type: 'string', pattern: '^([0-9a-fA-F]{2}){0,64}$' },
          description:
            'Up to 64 caller bytes (hex). The quote covers SHA-512("venue/attestation/v1" ‖ these bytes), never the bytes themselves.',
        },
      ],
      ok: { status: 200, schema: 'Attestation' },
      errors: [1001, 1401, 5001],
    },
  },
  '/evidences/{file}': {
    get: {
      tag: 'attestation',
      summary: 'Static gateway evidence files (not the engine quote)',
      auth: 'public',
      params: [{ name: 'file', in: 'path', required: true, schema: { type: 'string', maxLength: 128 } }],
      ok: { status: 200, description: 'The file.' },
      errors: [1301],
    },
  },
  '/instruments': {
    get: {
      tag: 'markets',
      summary: 'All markets',
      auth: 'public',
      ok: { status: 200, schema: 'InstrumentList' },
      errors: [],
    },
  },
  '/instruments/{symbol}': {
    get: {
      tag: 'markets',
      summary: 'One market',
      auth: 'public',
      params: [{ name: 'symbol', in: 'path', required: true, schema: { type: 'string', maxLength: 32 } }],
      ok: { status: 200, schema: 'Instrument' },
      errors: [1301],
    },
  },
  '/tree/root': {
    get: {
      tag: 'tree',
      summary: 'Current root of a shard',
      auth: 'public',
      params: [treeIdParam],
      ok: { status: 200, schema: 'TreeRoot' },
      errors: [1001, 5002],
    },
  },
  '/tree/inclusion': {
    get: {
      tag: 'tree',
      summary: 'Inclusion proof for a note commitment',
      auth: 'bearer',
      params: [{ name: 'note_commitment', in: 'query', required: true, schema: hex(32) }, treeIdParam],
      ok: { status: 200, schema: 'Inclusion' },
      errors: [1001, 1101, 1150, 1301, 1401, 5002],
    },
  },
  '/tree/leaves': {
    get: {
      tag: 'tree',
      summary: `Leaves in the half-open range [from, to), capped at ${LEAVES_PAGE_CAP} per page`,
      auth: 'bearer',
      params: [
        { name: 'from', in: 'query', required: true, schema: uint(2 ** 20) },
        { name: 'to', in: 'query', required: true, schema: uint(2 ** 20) },
        treeIdParam,
      ],
      ok: { status: 200, schema: 'Leaves' },
      errors: [1001, 1101, 1150, 1401, 5002],
    },
  },
  '/transparency': {
    get: {
      tag: 'system',
      summary: 'Public solvency snapshot, engine identity, aggregate stats',
      auth: 'public',
      ok: { status: 200, schema: 'Transparency' },
      errors: [],
    },
  },
  '/settlement/status/{batch_id}': {
    get: {
      tag: 'settlement',
      summary: 'Per-match settlement jobs of a batch',
      auth: 'bearer',
      params: [
        {
          name: 'batch_id',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: '^(0|[1-9][0-9]{0,19})$' },
        },
      ],
      ok: { status: 200, schema: 'SettlementStatus' },
      errors: [1001, 1101, 1150, 1301],
    },
  },
  '/account/settings': {
    get: {
      tag: 'account',
      summary: 'Account settings',
      auth: 'bearer',
      ok: { status: 200, schema: 'AccountSettings' },
      errors: [1101, 1150],
    },
    put: {
      tag: 'account',
      summary: 'Update account settings',
      auth: 'bearer',
      body: 'AccountSettings',
      ok: { status: 200, schema: 'AccountSettings' },
      errors: [1000, 1001, 1101, 1150],
    },
  },
  '/account/orders': {
    get: {
      tag: 'account',
      summary: 'The account’s open orders',
      auth: 'bearer',
      ok: { status: 200, schema: 'AccountOrders' },
      errors: [1101, 1150, 1401],
    },
  },
  '/admin/accounts': {
    post: {
      tag: 'admin',
      summary: 'Register an API account; credentials are returned once',
      auth: 'admin',
      body: 'CreateAccountRequest',
      ok: { status: 201, schema: 'CreatedAccount' },
      errors: [1000, 1001, 1101, 1150],
    },
  },
  '/admin/accounts/{api_key}/disable': {
    post: {
      tag: 'admin',
      summary: 'Suspend an account',
      auth: 'admin',
      params: [apiKeyParam],
      ok: { status: 200, schema: 'AccountState' },
      errors: [1101, 1150, 1206, 1301],
    },
  },
  '/admin/accounts/{api_key}/enable': {
    post: {
      tag: 'admin',
      summary: 'Reinstate an account',
      auth: 'admin',
      params: [apiKeyParam],
      ok: { status: 200, schema: 'AccountState' },
      errors: [1101, 1150, 1301],
    },
  },
  '/admin/accounts/{api_key}/revoke-tokens': {
    post: {
      tag: 'admin',
      summary: 'Invalidate all issued tokens without suspending',
      auth: 'admin',
      params: [apiKeyParam],
      ok: { status: 200, schema: 'AccountState' },
      errors: [1101, 1150, 1301],
    },
  },
  '/admin/drain': {
    get: {
      tag: 'admin',
      summary: 'Inspect a planned-stop drain',
      auth: 'admin',
      ok: { status: 200, schema: 'DrainStatus' },
      errors: [1101, 1150],
    },
    post: {
      tag: 'admin',
      summary: 'Begin a drain: new trading paused',
      auth: 'admin',
      ok: { status: 200, schema: 'DrainStatus' },
      errors: [1101, 1150],
    },
    delete: {
      tag: 'admin',
      summary: 'Cancel a drain',
      auth: 'admin',
      ok: { status: 200, schema: 'DrainStatus' },
      errors: [1101, 1150],
    },
  },
  '/admin/metrics/settlement': {
    get: {
      tag: 'admin',
      summary: 'Settlement queue and latency telemetry',
      auth: 'admin',
      ok: { status: 200, schema: 'SettlementMetrics' },
      errors: [1101, 1150],
    },
  },
  '/v1/stream': {
    get: {
      tag: 'stream',
      summary: 'WebSocket upgrade; login in-band with `op: login` within 10 seconds',
      auth: 'public',
      ok: { status: 101, description: 'Switching protocols.' },
      errors: [5001],
    },
  },
  '/openapi.json': {
    get: {
      tag: 'system',
      summary: 'This document',
      auth: 'public',
      ok: { status: 200, description: 'OpenAPI 3.1 document.' },
      errors: [],
    },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 5000 as const]) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const lines = list.map((c) => `${c} ${ERROR_CATALOGUE[c].message}`).join('; ');
    out[String(status)] = { description: `Error envelope. Codes: ${lines}.`, content: json(ref('Error')) };
  }
  return out;
}

function operation(method: string, path: string, op: Operation): Record<string, unknown> {
  const errors = op.auth === 'public' ? op.errors : [...new Set<ErrorCode>([1101, ...op.errors])];
  return {
    operationId: `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
    summary: op.summary,
    tags: [op.tag],
    ...(op.auth === 'public' ? { security: [] } : {}),
    ...(op.params ? { parameters: op.params } : {}),
    ...(op.body ? { requestBody: { required: true, content: json(ref(op.body)) } } : {}),
    responses: {
      [String(op.ok.status)]: {
        description: op.ok.description ?? 'Success.',
        headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
        ...(op.ok.schema ? { content: json(ref(op.ok.schema)) } : {}),
      },
      ...errorResponses(errors),
    },
  };
}

/** The OpenAPI 3.1 document, `info.version` 4.1.0. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [path, methods] of Object.entries(PATHS)) {
    paths[path] = Object.fromEntries(Object.entries(methods).map(([m, op]) => [m, operation(m, path, op)]));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nightjar hidden-order trading venue',
      version: API_VERSION,
      description:
        'Fully collateralised, privately matched spot orders over REST and one WebSocket (`/v1/stream`).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: [
      'auth',
      'orders',
      'system',
      'attestation',
      'markets',
      'tree',
      'settlement',
      'account',
      'admin',
      'stream',
    ].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      headers: {
        RequestId: { description: 'Correlation id, on every response.', schema: { type: 'string' } },
      },
      schemas: Object.fromEntries(Object.entries(SCHEMAS).map(([name, c]) => [name, c.schema])),
    },
  };
}

/** The document as served: JSON with exact u64 bounds. */
export function openApiJson(): string {
  return stringifyJson(openApiDocument());
}

/** Every method and path the document describes, e.g. `GET /orders/{order_id}`. */
export function documentedRoutes(): string[] {
  return Object.entries(PATHS).flatMap(([path, methods]) =>
    Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
  );
}
