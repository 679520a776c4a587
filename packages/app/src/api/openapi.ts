/**
 * The local API's OpenAPI 3.1 document (`GET /api/v1/openapi.json`), derived from the route table
 * (`routes.ts`) and its codecs: a served route is a documented one, its schemas the ones it parses.
 */
import type { Codec, JsonSchema } from '@nightjar/protocol';
import { appEvent } from '../wire/events.js';
import * as q from './requests.js';
import { API_PREFIX, APP_ROUTE_TAGS, type AppRouteDescriptor } from './route-descriptor.js';
import { appRouteEntries, type AppRouteId } from './routes.js';
import * as v from '../wire/views.js';

/** The named schemas, `$ref`ed wherever a route (or a list a route answers) uses them. */
const SCHEMAS: Record<string, Codec<unknown>> = {
  ApiError: v.apiError,
  ApiErrorBody: v.apiErrorBody,
  AttestationCheck: v.attestationCheck,
  VenueView: v.venueView,
  Asset: v.asset,
  MarketView: v.marketView,
  BalanceView: v.balanceView,
  FaucetRequest: q.faucetRequest,
  FaucetResult: v.faucetResult,
  DepositRequest: q.depositRequest,
  WithdrawRequest: q.withdrawRequest,
  TransferView: v.transferView,
  OrderRequest: q.orderRequest,
  OrderPreview: v.orderPreview,
  OrderView: v.orderView,
  ModifyRequest: q.modifyRequest,
  FillView: v.fillView,
  FillSummaryView: v.fillSummaryView,
  OperatorLoginRequest: q.operatorLoginRequest,
  OperatorLoginView: v.operatorLoginView,
  DrainView: v.drainView,
  OperatorStatusView: v.operatorStatusView,
  TransparencyView: v.transparencyView,
  MetricsView: v.metricsView,
  AccountView: v.accountView,
  CreateAccountRequest: q.createAccountRequest,
  CreatedAccountView: v.createdAccountView,
  AppEvent: appEvent,
};

const NAMES = new Map<JsonSchema, string>(Object.entries(SCHEMAS).map(([name, c]) => [c.schema, name]));
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

/** A named schema as its `$ref`, a list of one as an array of `$ref`s, anything else inline. */
function schemaOf(codec: Codec<unknown>): unknown {
  const name = NAMES.get(codec.schema);
  if (name) return ref(name);
  const items = codec.schema.items as JsonSchema | undefined;
  const itemName = items && NAMES.get(items);
  return itemName ? { ...codec.schema, items: ref(itemName) } : codec.schema;
}

function operation(id: AppRouteId, route: AppRouteDescriptor): Record<string, unknown> {
  const errors = Object.fromEntries(
    route.errors.map((status) => [
      String(status),
      { description: 'An error naming its fix', content: json(ref('ApiError')) },
    ]),
  );
  return {
    operationId: id,
    summary: route.summary,
    tags: [route.tag],
    ...(route.params ? { parameters: route.params.map(({ wildcard: _router, ...param }) => param) } : {}),
    ...(route.body ? { requestBody: { required: true, content: json(schemaOf(route.body)) } } : {}),
    responses: {
      [String(route.ok.status)]: {
        description: 'OK',
        ...(route.ok.codec ? { content: json(schemaOf(route.ok.codec)) } : {}),
      },
      ...errors,
    },
  };
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, route] of appRouteEntries())
    (paths[API_PREFIX + route.path] ??= {})[route.method] = operation(id, route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nightjar app: local API',
      version: '1.0.0',
      description:
        "The trading app's local JSON + WebSocket API on 127.0.0.1 (docs/app.md). Amounts and prices are decimal strings in human units. " +
        'Every call needs the browser session (cookie from the printed one-time URL) or the bot token (`Authorization: Bearer`, from <data-dir>/app/api-token). ' +
        "Requests whose Host or Origin is not the app's own loopback address are refused.",
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }, { botToken: [] }],
    tags: APP_ROUTE_TAGS.map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(SCHEMAS).map(([name, c]) => [name, c.schema])),
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'nightjar_session' },
        botToken: { type: 'http', scheme: 'bearer', description: 'The token in <data-dir>/app/api-token.' },
      },
    },
  };
}
