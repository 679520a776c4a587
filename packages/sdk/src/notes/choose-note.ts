/** Choosing the note that backs an order: free, of the right value, and in the venue's tree. */
import { treeRootCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { VenueSession } from '../core/session.js';
import { sleep } from '../core/utils/backoff.js';
import type { WalletNote } from '../wallet/wallet.js';
import type { FreshNoteHold } from '../wallet/fresh-note-hold.js';
import {
  INSUFFICIENT_NOTES_CODES,
  isNightjarError,
  NIGHTJAR_ERROR__INSUFFICIENT_NOTES,
  NIGHTJAR_ERROR__NOTE_HELD,
  NIGHTJAR_ERROR__NOTES_PENDING,
  NightjarError,
} from '../core/errors/index.js';

/** The collateral an order needs. */
export interface NoteChoiceParameters {
  /** Mint of the collateral (quote for a bid, base for an ask). */
  mint: string;
  /** The collateral the order requires (nominal + fee). */
  required: bigint;
  /** Use this note (commitment) instead of choosing. */
  commitment?: string;
  /** The order a modify replaces: its note may back the replacement. */
  replacing?: string;
  /** Consider only the notes for which this holds (e.g. those the venue's tree has). */
  usable?: (note: WalletNote) => boolean;
}

/** The chosen note and the `collateral_amount` to declare. */
export interface ChosenNote {
  note: WalletNote;
  /** The note's value when it exceeds `required` (the surplus returns as change); else undefined. */
  collateralAmount: bigint | undefined;
}

/** The largest amount among `notes` (0 for none). */
export function largestAmount(notes: readonly WalletNote[]): bigint {
  return notes.reduce((m, n) => (n.amount > m ? n.amount : m), 0n);
}

/**
 * The note an order needing `required` is backed by when none is named: one of exactly `required`,
 * else the first larger one (`freeNotes` lists them smallest first). The app's preview names it too.
 */
export function defaultBackingNote(free: readonly WalletNote[], required: bigint): WalletNote | undefined {
  return free.find((n) => n.amount === required) ?? free.find((n) => n.amount > required);
}

function pick(free: readonly WalletNote[], params: NoteChoiceParameters): WalletNote | undefined {
  const note = params.commitment
    ? free.find((n) => n.commitment === params.commitment)
    : defaultBackingNote(free, params.required);
  return note && note.amount >= params.required ? note : undefined;
}

/**
 * The note that backs an order among the wallet's free notes (see `selectNote`); throws
 * `INSUFFICIENT_NOTES` when none would do.
 */
export function selectFreeNote(client: Client, params: NoteChoiceParameters): ChosenNote {
  const all = client.wallet.freeNotes(params.mint, { replacing: params.replacing });
  const free = params.usable ? all.filter(params.usable) : all;
  const note = pick(free, params);
  if (!note)
    throw new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
      mint: params.mint,
      required: params.required,
      available: largestAmount(free),
    });
  return { note, collateralAmount: note.amount === params.required ? undefined : note.amount };
}

/**
 * A view of the venue's tree mirror (of `engine`, the one an order goes to; default the client's
 * own): which notes' leaves it already has.
 */
export async function venueTree(
  client: Client,
  notes: readonly WalletNote[],
  engine: VenueSession = client,
): Promise<(n: WalletNote) => boolean> {
  const counts = new Map<number, number>();
  for (const treeId of new Set(notes.map((n) => n.treeId))) {
    const r = await engine.request(`/tree/root?tree_id=${treeId}`, { auth: false, codec: treeRootCodec });
    counts.set(treeId, Number(r.leaf_count));
  }
  return (n) => n.leafIndex !== undefined && n.leafIndex < (counts.get(n.treeId) ?? 0);
}

/**
 * Which of `notes` can back an order now: the venue's tree has it (`inTree`; an input proof is
 * built against it) and, with a fresh-note hold, its hold has passed (`usable`).
 */
export async function orderReadyNotes(
  client: Client,
  notes: readonly WalletNote[],
  engine: VenueSession = client,
): Promise<{ inTree: (n: WalletNote) => boolean; usable: (n: WalletNote) => boolean }> {
  const inTree = await venueTree(client, notes, engine);
  const hold = client.noteHold?.enabled ? client.noteHold : undefined;
  // A deposit note on its fresh-note hold backs no order yet (notes/fresh-note-hold.ts).
  return { inTree, usable: hold ? (n) => inTree(n) && hold.ready(n, true) : inTree };
}

/** Options of `chooseNote`: how long to wait for the venue's tree to have a note. */
export interface ChooseNoteOptions {
  /** Longest wait (default 20 s: a deposit is finalized about 13 s after it lands). */
  waitMs?: number;
  /** Poll interval (default one slot). */
  pollMs?: number;
  /** The engine whose tree the order's proof is built on (its market's); default the client's own. */
  engine?: VenueSession;
}

/**
 * `selectFreeNote` among the notes the venue's tree already has (an input proof is built against the
 * venue's tree: a note it lacks gets 1301). When only notes it lacks would do, waits (bounded) for
 * it to catch up, then throws `NOTES_PENDING`. The chosen note is reserved (`wallet.reserved`)
 * until the caller releases it.
 */
export async function chooseNote(
  client: Client,
  params: NoteChoiceParameters,
  options: ChooseNoteOptions = {},
): Promise<ChosenNote> {
  const waitMs = options.waitMs ?? 20_000;
  const hold = client.noteHold?.enabled ? client.noteHold : undefined;
  const start = Date.now();
  for (;;) {
    const candidates = client.wallet.freeNotes(params.mint, { replacing: params.replacing });
    const { inTree, usable } = await orderReadyNotes(client, candidates, options.engine);
    try {
      const chosen = selectFreeNote(client, { ...params, usable });
      // Reserved in the same tick it was chosen: a concurrent choice cannot take it too.
      client.wallet.reserved.add(chosen.note.commitment);
      return chosen;
    } catch (err) {
      // Would a note the venue lacks do? Then wait for it; else there is none.
      if (!isNightjarError(err, INSUFFICIENT_NOTES_CODES) || !pick(candidates, params)) throw err;
      const waited = Date.now() - start;
      const held = hold ? heldRelease(candidates.filter(inTree), params, hold) : undefined;
      if (held !== undefined && hold) {
        // One the venue has would do once its hold passes: wait for it if that is soon enough.
        const left = held - hold.now();
        if (left > waitMs - waited)
          throw new NightjarError(NIGHTJAR_ERROR__NOTE_HELD, {
            mint: params.mint,
            required: params.required,
            available: 0n,
            readyAt: held,
          });
        await sleep(Math.max(1, left));
        continue;
      }
      if (waited >= waitMs)
        throw new NightjarError(NIGHTJAR_ERROR__NOTES_PENDING, {
          mint: params.mint,
          required: params.required,
          available: err.context.available,
          waitedMs: waited,
        });
      await sleep(Math.min(options.pollMs ?? client.slotMs, waitMs - waited));
    }
  }
}

/** The earliest time a held note among `final` would back the order, or undefined. */
function heldRelease(
  final: readonly WalletNote[],
  params: NoteChoiceParameters,
  hold: FreshNoteHold,
): number | undefined {
  let earliest: number | undefined;
  for (const n of final) {
    const at = pick([n], params) ? hold.releaseAt(n, true) : undefined;
    if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
  }
  return earliest;
}
