/** Instruction argument codecs (the protocol package's codec language) and shared field types. */
import {
  arrayOf,
  base58Address,
  decimalU64String,
  FieldError,
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
import { FILL_MEMO_BYTES, NOTE_MEMO_BYTES } from '@nightjar/crypto';
import { InstructionError } from '@nightjar/protocol/ledger-client';

const u64 = decimalU64String;
const treeId = smallUint(255, 'Tree shard.');
const commitment = fieldElementHex;

export const MAX_LOCKS_PER_TX = 32;

/** A field element that may not be 0 (a nullifier, a use tag, an output commitment: never "absent"). */
function nonZeroField(description?: string): Codec<string> {
  const field = commitment(description);
  return {
    schema: field.schema,
    parse(value, path = '') {
      const hex = field.parse(value, path);
      if (/^0+$/.test(hex)) throw new FieldError(path, 'must not be zero');
      return hex;
    },
  };
}

/**
 * A lock entry (contract B.1): the note by shard, a root it ever had and its nullifier, the use tag
 * binding it to one order, the expiry, and the lock proof (VALID_INPUT v2 from the owner or
 * VALID_LOCK for a change note; nothing says which) over [use_tag, merkle_root, nullifier]. No
 * commitment or order: nothing links the lock to a leaf.
 */
const lockArgs = object({
  tree_id: required(treeId),
  merkle_root: required(commitment('Any root the shard ever had, under which the note lies.')),
  nullifier: required(nonZeroField('Nullifier of the note to lock.')),
  use_tag: required(nonZeroField('Use tag binding the note to its order (DESIGN.md section 3).')),
  until_slot: required(u64()),
  proof: required(
    hexBytes(256, {
      description: 'VALID_INPUT v2 or VALID_LOCK Groth16 proof of [use_tag, merkle_root, nullifier].',
    }),
  ),
});

export const MAX_MATCHES_PER_BATCH = 16;
/** Output slots of a match, `MATCH_OUTPUT_SLOTS` in @nightjar/crypto. */
const NUM_OUTPUT_SLOTS = 6;

/** A note an instruction consumes: its shard, a root that shard ever had and its nullifier. */
function noteInput(nullifierDescription: string) {
  return object({
    tree_id: required(treeId),
    merkle_root: required(commitment('A root the shard holding the input note ever had.')),
    nullifier: required(nonZeroField(nullifierDescription)),
  });
}

/** A settlement input names only its nullifier: its lock's proof showed the note and its root. */
const matchInput = object({ nullifier: required(nonZeroField('Nullifier of a note this signer locked.')) });

/** An output's place: its slot is its index in `outputs` (MATCH_OUTPUT_SLOTS order). */
const matchOutput = object({
  tree_id: required(treeId),
  commitment: required(nonZeroField('Commitment of the new note (a zero-value one too).')),
});

const fillMemo = text({
  minLength: 2 * FILL_MEMO_BYTES,
  maxLength: 2 * FILL_MEMO_BYTES,
  pattern: '^([0-9a-f]{2})*$',
  description: `Encrypted fill memo, hex, exactly ${FILL_MEMO_BYTES} bytes (DESIGN 7).`,
});

const settleMatch = object({
  match_idx: required(smallUint(MAX_MATCHES_PER_BATCH - 1)),
  /** Exactly two: the bid's input (quote mint), then the ask's (base mint). */
  inputs: required(arrayOf(matchInput, { minItems: 2, maxItems: 2 })),
  /** Exactly six, index = MATCH_OUTPUT_SLOTS slot; every one is appended, zero-value ones too. */
  outputs: required(arrayOf(matchOutput, { minItems: NUM_OUTPUT_SLOTS, maxItems: NUM_OUTPUT_SLOTS })),
  /** Exactly two: the bid's memo, then the ask's. */
  memos: required(arrayOf(fillMemo, { minItems: 2, maxItems: 2 })),
  proof: required(
    hexBytes(256, { description: 'VALID_MATCH v2 Groth16 proof (DESIGN.md section 3 encoding).' }),
  ),
});

export const MAX_JOIN_SPLIT_INPUTS = 4;
export const MAX_JOIN_SPLIT_OUTPUTS = 8;

const joinSplitInput = noteInput('Nullifier of the note consumed.');

const joinSplitOutput = object({
  slot: required(smallUint(MAX_JOIN_SPLIT_OUTPUTS - 1, 'Output slot; its inner hash derives from it.')),
  tree_id: required(treeId),
  commitment: required(nonZeroField('Commitment of the new note.')),
});

/** A withdrawal's change note: what VALID_SPEND v2 leaves to the owner, and its memo. */
const withdrawChange = object({
  tree_id: required(treeId),
  commitment: required(nonZeroField('Commitment of the change note (the proof binds it).')),
  memo: required(
    hexBytes(NOTE_MEMO_BYTES, {
      description: 'Note memo of the change, sealed to the owner (docs/ledger.md).',
    }),
  ),
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
    market_id: required(base58Address()),
    /** The last slot the batch may land in (bound by every match's proof). */
    settle_by_slot: required(u64()),
    matches: required(arrayOf(settleMatch, { minItems: 1, maxItems: MAX_MATCHES_PER_BATCH })),
  }),
  release_lock: object({ nullifier: required(commitment()) }),
  /** Split or merge notes of one mint and owner (VALID_JOIN_SPLIT); signed by any key. */
  join_split: object({
    /** Used input slots, in slot order (slot i is the i-th entry). */
    inputs: required(arrayOf(joinSplitInput, { minItems: 1, maxItems: MAX_JOIN_SPLIT_INPUTS })),
    /** Slots strictly increasing; absent slots are outputs of zero value. */
    outputs: required(arrayOf(joinSplitOutput, { minItems: 1, maxItems: MAX_JOIN_SPLIT_OUTPUTS })),
    memo: required(hexBytes(NOTE_MEMO_BYTES, { description: 'Note memo to the owner (docs/ledger.md).' })),
    proof: required(hexBytes(256, { description: 'VALID_JOIN_SPLIT Groth16 proof.' })),
  }),
  withdraw: object({
    tree_id: required(treeId),
    merkle_root: required(commitment()),
    nullifier: required(commitment()),
    mint: required(base58Address()),
    amount: required(u64()),
    recipient: required(base58Address()),
    /** Absent exactly when the proof's change_commitment is 0 (the whole note is paid out). */
    change: optional(withdrawChange),
    proof: required(hexBytes(256, { description: 'VALID_SPEND v2 Groth16 proof.' })),
  }),
};

export type InstructionName = keyof typeof argCodecs;
export type Args<N extends InstructionName> = InferObject<(typeof argCodecs)[N]['props']>;
/** One match of a `settle_batch`. */
export type MatchArgs = Args<'settle_batch'>['matches'][number];

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
