/** Parameters and error lists several routes of `VENUE_ROUTES` share. */
import type { ErrorCode } from './errors.js';
import { MAX_TREE_SHARDS } from './limits.js';
import type { JsonSchema } from './schema.js';

export const hex = (bytes: number): JsonSchema => ({
  type: 'string',
  pattern: `^[0-9a-fA-F]{${bytes * 2}}$`,
});
export const uint = (max: number): JsonSchema => ({ type: 'integer', minimum: 0, maximum: max });
export const orderId = { name: 'order_id', in: 'path', required: true, schema: hex(16) } as const;
export const treeId = {
  name: 'tree_id',
  in: 'query',
  required: false,
  schema: { ...uint(MAX_TREE_SHARDS - 1), default: 0 },
} as const;
export const apiKey = {
  name: 'api_key',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 256 },
} as const;

/** What placing (and so modifying) an order may answer. */
export const ORDER_ERRORS = [
  1001, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1101, 1102, 1150, 1201, 1202, 1204, 1205,
  1301, 1401, 5001,
] as const satisfies readonly ErrorCode[];
