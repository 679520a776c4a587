/** Instruction argument codecs (the protocol package's codec language) and shared field types. */
import {
  arrayOf,
  base58Address,
  decimalU64String,
  fieldElementHex,
  boolean,
  hexBytes,
  object,
  optional,
  required,
  smallUint,
  symbolCodec,
  text,
  parseBody,
  type Codec,
  type InferObject,
} from '@nightjar/protocol';
import { InstructionError } from '../errors.js';

const u64 = decimalU64String;
const treeId = smallUint(255, 'Tree shard.');
const commitment = fieldElementHex;

export const MAX_LOCKS_PER_TX = 32;

const lockArgs = object({
  tree_id: required(treeId),
  merkle_root: required(commitment()),
  note_commitment: required(commitment()),
  nullifier: required(commitment()),
  mint: required(base58Address()),
  proof: required(hexBytes(256)),
  order_id: required(hexBytes(16)),
  until_slot: required(u64()),
});

/** A settlement output locked to an order at once (a partial fill's change note, DESIGN.md section 6). */
const relockArgs = object({
  order_id: required(hexBytes(16)),
  until_slot: required(u64()),
  nullifier: required(commitment('Nullifier of the new note, computed by the TEE (not checked here).')),
});

export const argCodecs = {
  initialize: object({
    fee_owner_commitment: required(commitment('Owner commitment of the protocol fee notes.')),
    num_trees: required(smallUint(256)),
  }),
  set_tee_keys: object({ keys: required(arrayOf(base58Address(), { maxItems: 16 })) }),
  create_mint: object({
    label: required(text({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' })),
    decimals: required(smallUint(18)),
  }),
  create_market: object({
    symbol: required(symbolCodec),
    base_mint: required(base58Address()),
    quote_mint: required(base58Address()),
    price_scale: required(u64()),
    tick_size: required(u64()),
    min_order_size: required(u64()),
    fee_bps: required(u64()),
    trading_enabled: optional(boolean()),
  }),
  deposit: object({
    tree_id: required(treeId),
    mint: required(base58Address()),
    amount: required(u64()),
    note_commitment: required(commitment()),
    opening_hash: required(commitment()),
  }),
  lock_note: lockArgs,
  lock_notes: object({ locks: required(arrayOf(lockArgs, { minItems: 1, maxItems: MAX_LOCKS_PER_TX })) }),
  settle_batch: object({
    batch_id: required(u64()),
    matches: required(
      arrayOf(
        object({
          match_idx: required(smallUint(15)),
          inputs: required(arrayOf(commitment('Nullifier of a locked input.'), { minItems: 1, maxItems: 2 })),
          outputs: required(
            arrayOf(
              object({
                tree_id: required(treeId),
                mint: required(base58Address()),
                amount: required(u64()),
                opening_hash: required(commitment()),
                relock: optional(relockArgs),
              }),
              { minItems: 1, maxItems: 8 },
            ),
          ),
          memos: required(
            arrayOf(
              text({
                maxLength: 1024,
                pattern: '^([0-9a-f]{2})*$',
                description: 'Encrypted fill memo, hex.',
              }),
              {
                maxItems: 2,
              },
            ),
          ),
        }),
        { minItems: 1, maxItems: 16 },
      ),
    ),
  }),
  release_lock: object({ nullifier: required(commitment()) }),
  withdraw: object({
    tree_id: required(treeId),
    merkle_root: required(commitment()),
    nullifier: required(commitment()),
    mint: required(base58Address()),
    amount: required(u64()),
    recipient: required(base58Address()),
    proof: required(hexBytes(256)),
  }),
};

export type InstructionName = keyof typeof argCodecs;
export type Args<N extends InstructionName> = InferObject<(typeof argCodecs)[N]['props']>;

export function isInstructionName(name: unknown): name is InstructionName {
  return typeof name === 'string' && Object.hasOwn(argCodecs, name);
}

/** An instruction's arguments parsed by its codec, or why they could not be. */
export type DecodedInstruction =
  { ok: true; name: InstructionName; args: unknown } | { ok: false; name: string; failure: InstructionError };

export function decodeInstruction(instruction: { name: string; args: unknown }): DecodedInstruction {
  const { name } = instruction;
  if (!isInstructionName(name))
    return { ok: false, name, failure: new InstructionError('UnknownInstruction') };
  const r = parseBody(argCodecs[name] as Codec<unknown>, instruction.args);
  return r.ok
    ? { ok: true, name, args: r.value }
    : { ok: false, name, failure: new InstructionError('InvalidArgs', r.message) };
}
