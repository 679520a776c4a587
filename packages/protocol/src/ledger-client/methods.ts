/**
 * The ledger's method table (DESIGN.md section 6, docs/ledger.md): one entry per JSON-RPC method,
 * naming its params codec, its result type and who may call it. `LedgerClient` is derived from it,
 * the RPC server (rpc-server.ts) parses params with its codecs and dispatches through it, and
 * `RpcLedgerClient` (rpc-client.ts) is generated from it, so a new method is one entry here plus its
 * implementation on `Ledger`.
 */
import {
  arrayOf,
  base58Address,
  FieldError,
  fieldElementHex,
  object,
  optional,
  parseBody,
  required,
  smallUint,
  text,
  type Codec,
} from '../index.js';
import { RPC_ERRORS, RpcError } from './errors.js';
import { MAX_NULLIFIERS_PER_READ } from './read-limits.js';
import type {
  BlockRecord,
  ChainInfo,
  Commitment,
  DepositRecord,
  FaultConfig,
  LeafRecord,
  LedgerEvent,
  MarketRecord,
  MemoRecord,
  MintSolvency,
  NoteStatus,
  RootWindowRecord,
  SignatureStatus,
  Transaction,
  TransactionRecord,
  TreeRootRecord,
  VaultInfo,
} from './types.js';

/**
 * Who calls a method. `client`: every LedgerClient (the engine, the SDK). `tool`: a read for tests
 * and tools, served on any ledger. `dev`: a dev control, on the wire as `dev_<name>` and refused
 * outside dev mode.
 */
export type Surface = 'client' | 'tool' | 'dev';

/** Marks an entry's result type; results travel as the ledger returns them, unparsed. */
interface Returns<R> {
  readonly result?: R;
}

export interface MethodSpec<P, R, S extends Surface = Surface> extends Returns<R> {
  readonly params: Codec<P>;
  readonly surface: S;
  /** Refused outside dev mode, and over JSON-RPC without the dev secret (every `dev` method is). */
  readonly devOnly?: true;
}

function method<P, R, S extends Surface = 'client'>(
  params: Codec<P>,
  _result: Returns<R>,
  surface: S = 'client' as S,
  options: { devOnly?: true } = {},
): MethodSpec<P, R, S> {
  return { params, surface, ...options };
}

const returns = <R>(): Returns<R> => ({});

/**
 * Params the ledger method checks itself: passed through as they came, so its messages and the
 * order of its checks (the ledger's state before the params) stay what they were.
 */
function checkedByLedger<P>(): Codec<P> {
  return { schema: { type: 'object' }, parse: (value) => value as P };
}

/** Params a caller may leave out (the server reads absent params as `{}`). */
function mayBeAbsent<P>(codec: Codec<P>): Codec<P | undefined> {
  return codec;
}

const index = smallUint(Number.MAX_SAFE_INTEGER);
const memoRange = object({ from: required(index), to: required(index) });
/** `getMemos({signature})` of earlier versions is now `getMemosBySignature`: say so. */
const memoRangeParams: Codec<{ from: number; to: number }> = {
  schema: memoRange.schema,
  parse(value, path) {
    if (value && typeof value === 'object' && 'signature' in value)
      throw new FieldError('', 'getMemos takes {from, to}; use getMemosBySignature');
    return memoRange.parse(value, path);
  },
};
/** A method that takes none (whatever params come are ignored, as they always were). */
const noParams = checkedByLedger<void>();
const atCommitment = mayBeAbsent(checkedByLedger<{ commitment?: Commitment }>());
const shardAtCommitment = checkedByLedger<{ tree_id: number; commitment?: Commitment }>();

export const LEDGER_METHODS = {
  getSlot: method(atCommitment, returns<number>()),
  /**
   * The chain id and the work asked of fresh signers (also in getVault), before the vault exists
   * too: `initialize` is signed for the chain like every transaction.
   */
  getChain: method(noParams, returns<ChainInfo>()),
  getVault: method(atCommitment, returns<VaultInfo>()),
  getMarkets: method(noParams, returns<MarketRecord[]>()),
  getTreeRoot: method(shardAtCommitment, returns<TreeRootRecord>()),
  getLeaves: method(
    checkedByLedger<{ tree_id: number; from: number; to: number }>(),
    returns<{ leaves: LeafRecord[] }>(),
  ),
  /**
   * Every root the shard had in the last ROOT_WINDOW_SLOTS (181) slots at `commitment`, however
   * many appends that is, oldest first, ending with that level's root (engine intake's window).
   */
  getRootWindow: method(shardAtCommitment, returns<RootWindowRecord>()),
  getBalance: method(checkedByLedger<{ owner: string; mint: string }>(), returns<string>()),
  getNonce: method(checkedByLedger<{ signer: string }>(), returns<string | null>()),
  /** Dev mode only: the ledger itself refuses it otherwise (the wire name has no `dev_`). */
  requestAirdrop: method(
    checkedByLedger<{ owner: string; mint: string; amount: string }>(),
    returns<{ signature: string }>(),
    'client',
    { devOnly: true },
  ),
  sendTransaction: method(checkedByLedger<{ transaction: Transaction }>(), returns<{ signature: string }>()),
  getSignatureStatuses: method(
    checkedByLedger<{ signatures: string[] }>(),
    returns<(SignatureStatus | null)[]>(),
  ),
  getTransaction: method(checkedByLedger<{ signature: string }>(), returns<TransactionRecord | null>()),
  getNoteStatus: method(object({ nullifier: required(fieldElementHex()) }), returns<NoteStatus>()),
  /** Many notes at once (at most 256), in the order asked. */
  getNoteStatuses: method(
    object({ nullifiers: required(arrayOf(fieldElementHex(), { maxItems: MAX_NULLIFIERS_PER_READ })) }),
    returns<NoteStatus[]>(),
  ),
  /**
   * The spent nullifiers in storage order from cursor `from` (at most 4,096) and the next page's
   * cursor; an empty page means the reader is caught up (a nullifier mirror's rebuild).
   */
  getSpentNullifiers: method(
    object({ from: required(index) }),
    returns<{ nullifiers: string[]; next: number }>(),
  ),
  /** Locks still holding now, paged like getSpentNullifiers. */
  getLiveLocks: method(
    object({ from: required(index) }),
    returns<{ locks: { nullifier: string; until_slot: number }[]; next: number }>(),
  ),
  /** Memos by global index, half-open [from, to), at most 10,000 from `from` (longer ranges are cut). */
  getMemos: method(memoRangeParams, returns<{ memos: MemoRecord[] }>()),
  /** The memos stored with one settlement, in storage order. */
  getMemosBySignature: method(
    object({ signature: required(text({ minLength: 128, maxLength: 128, pattern: '^[0-9a-f]{128}$' })) }),
    returns<{ memos: MemoRecord[] }>(),
    'tool',
  ),
  /** Every mint, sorted by address; `slot` is the slot the read was served at. */
  getSolvency: method(
    mayBeAbsent(object({}) as Codec<Record<string, never>>),
    returns<{ slot: number; mints: MintSolvency[] }>(),
  ),
  /** Deposits `owner` signed that landed, oldest first, from the `from`-th (at most 1,000). */
  getDeposits: method(
    object({ owner: required(base58Address()), from: optional(index) }),
    returns<{ deposits: DepositRecord[] }>(),
  ),
  /**
   * Every transaction that landed in a finalized slot, in landing order, exactly as sent (an
   * explorer's view of the chain). A slot not yet finalized is refused (-32602).
   */
  getBlock: method(object({ slot: required(index) }), returns<BlockRecord>()),
  /** Manual clock only: moves the clock forward and lands what became due. */
  advanceSlots: method(checkedByLedger<{ slots: number }>(), returns<number>(), 'dev'),
  setFaults: method(checkedByLedger<Partial<FaultConfig>>(), returns<FaultConfig>(), 'dev'),
};

export type LedgerMethodTable = typeof LEDGER_METHODS;
export type LedgerMethodName = keyof LedgerMethodTable;

/** A method's params and result, for its implementation on `Ledger`. */
export type ParamsOf<K extends LedgerMethodName> =
  LedgerMethodTable[K] extends MethodSpec<infer P, unknown> ? Exclude<P, undefined> : never;
export type ResultOf<K extends LedgerMethodName> =
  LedgerMethodTable[K] extends MethodSpec<unknown, infer R> ? R : never;

/** Whether a method is a dev control (`dev_*`) or otherwise dev-only (the faucet). */
export function isDevOnly(name: LedgerMethodName): boolean {
  const spec: MethodSpec<unknown, unknown> = LEDGER_METHODS[name];
  return spec.surface === 'dev' || spec.devOnly === true;
}

/**
 * The HTTP header a dev-only call over JSON-RPC carries the ledger's dev secret in (dev-secret.ts);
 * `RpcLedgerClient` sends it when given `devSecret`.
 */
export const DEV_SECRET_HEADER = 'x-nightjar-dev-secret';

/**
 * What the server knows of a call besides its params, passed to the ledger's method after them
 * (in process there is none): the source address, for limits per address.
 */
export interface CallContext {
  remoteAddress: string;
}

/** The method's name on the wire. */
export function wireName(name: LedgerMethodName): string {
  return LEDGER_METHODS[name].surface === 'dev' ? `dev_${name}` : name;
}

/** Parses params with a table codec, or throws JSON-RPC invalid params naming the field. */
export function parseParams<T>(codec: Codec<T>, params: unknown): T {
  const r = parseBody(codec, params ?? {});
  if (!r.ok) throw new RpcError(RPC_ERRORS.invalidParams, r.message);
  return r.value;
}

/** One entry as a method: no params, optional params (a codec that allows absent ones) or params. */
type CallOf<M> =
  M extends MethodSpec<infer P, infer R>
    ? [P] extends [void]
      ? () => Promise<R>
      : undefined extends P
        ? (params?: P) => Promise<R>
        : (params: P) => Promise<R>
    : never;

/** The table's methods called by `surface`. */
export type LedgerMethods<S extends Surface = Surface> = {
  [K in LedgerMethodName as LedgerMethodTable[K]['surface'] extends S ? K : never]: CallOf<
    LedgerMethodTable[K]
  >;
};

/** What every ledger client (in-process or JSON-RPC) offers; the engine and SDK see only this. */
export interface LedgerClient extends LedgerMethods<'client'> {
  subscribe(listener: (event: LedgerEvent) => void): () => void;
  close(): Promise<void>;
}

/** What a dev ledger offers its tests and tools beyond LedgerClient, in process or over JSON-RPC. */
export type LedgerDevControls = LedgerMethods<'tool' | 'dev'>;

export type DevLedgerClient = LedgerClient & LedgerDevControls;
