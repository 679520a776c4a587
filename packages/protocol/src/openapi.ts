/**
 * The OpenAPI 3.1 description of the venue (`GET /openapi.json`), generated from the route table
 * the engine registers from (`routes.ts`) and the same codecs the validators use. u64 bounds are
 * bigint: serialise with {@link openApiJson} to keep them exact.
 */
import * as b from './bodies.js';
import { ERROR_CATALOGUE, type ErrorCode } from './errors.js';
import { proverChallengeCodec, proverEvidenceCodec, proverRegistrationCodec } from './prover-attestation.js';
import { stringifyJson } from './json.js';
import { settlementKeyEvidenceCodec } from './settlement-key-attestation.js';
import { API_VERSION } from './limits.js';
import * as r from './responses.js';
import { ROUTE_TAGS, type RouteDescriptor } from './route-descriptor.js';
import { routeEntries, routeKey } from './routes.js';
import type { Codec } from './schema.js';

const SCHEMAS: Record<string, Codec<unknown>> = {
  PlaceOrderRequest: b.placeOrderCodec,
  CancelRequest: b.cancelCodec,
  ModifyRequest: b.modifyCodec,
  TokenRequest: b.tokenRequestCodec,
  AccountSettings: b.accountSettingsCodec,
  CreateAccountRequest: b.createAccountCodec,
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
  SettlementKeyEvidence: settlementKeyEvidenceCodec,
  ProverChallenge: proverChallengeCodec,
  ProverEvidence: proverEvidenceCodec,
  ProverRegistration: proverRegistrationCodec,
  Attestation: r.attestationCodec,
  Error: r.errorEnvelopeCodec,
};

/** Each codec's component name, for the `$ref`s of the routes that use it. */
const SCHEMA_NAMES = new Map<Codec<unknown>, string>(Object.entries(SCHEMAS).map(([name, c]) => [c, name]));

function schemaRef(codec: Codec<unknown>): { $ref: string } {
  const name = SCHEMA_NAMES.get(codec);
  if (name === undefined)
    throw new Error(`a route uses a codec not listed in SCHEMAS: ${JSON.stringify(codec.schema)}`);
  return ref(name);
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
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

function operation(op: RouteDescriptor): Record<string, unknown> {
  // Every authenticated route checks the token (1101) and, with the accounts in PostgreSQL, answers
  // 5001 while that store is unreachable (DESIGN 11).
  const errors = op.auth === 'public' ? op.errors : [...new Set<ErrorCode>([1101, 5001, ...op.errors])];
  return {
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
    summary: op.summary,
    tags: [op.tag],
    ...(op.auth === 'public' ? { security: [] } : {}),
    ...(op.params ? { parameters: op.params.map(({ wildcard: _router, ...param }) => param) } : {}),
    ...(op.body ? { requestBody: { required: true, content: json(schemaRef(op.body)) } } : {}),
    responses: {
      [String(op.ok.status)]: {
        description: op.ok.description ?? 'Success.',
        headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
        ...(op.ok.codec ? { content: json(schemaRef(op.ok.codec)) } : {}),
      },
      ...errorResponses(errors),
    },
  };
}

/** The OpenAPI 3.1 document, `info.version` 4.1.0. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [, route] of routeEntries()) (paths[route.path] ??= {})[route.method] = operation(route);
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
    tags: ROUTE_TAGS.map((name) => ({ name })),
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
  return routeEntries().map(([, route]) => routeKey(route));
}
