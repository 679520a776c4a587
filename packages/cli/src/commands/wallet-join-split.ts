/** `nightjar wallet split|merge`: one join-split each, with a VALID_JOIN_SPLIT proof. */
import { mergeNotes, splitNote } from '@nightjar/sdk';
import { positiveIntOption, UsageError } from '../args.js';
import { str, type Command } from '../command.js';
import { openWallet, withClient } from '../connect.js';
import { CliError, EXIT } from '../exit-codes.js';
import { joinSplitProgress, noteRow, syncedAsset, units } from '../notes.js';

/** Comma-separated flag values, e.g. `--amounts 100,100,50`. */
function list(values: string, flag: string): string[] {
  const items = values.split(',').map((v) => v.trim());
  if (items.some((v) => v === '')) throw new UsageError(`--${flag} is a comma-separated list, e.g. A,B,C`);
  return items;
}

export const walletSplit: Command = {
  name: 'wallet split',
  summary: 'split a free note into several (one deposit backs several orders)',
  usage: `nightjar wallet split --asset A (--into N | --amounts X,Y,...) [--note COMMITMENT] [--no-wait]

  --asset A         SOL, USDC, ETH (or a Base58 mint); optional with --note
  --into N          N equal notes (2 to 8)
  --amounts X,Y     notes of these amounts, human units (1 to 8, e.g. 100,100,50); what is left of
                    the note becomes one more note, last
  --note C          the note to split (default: with --into the largest free note, with --amounts
                    the smallest free note that covers them)
  --no-wait         do not wait until the new notes are final (usable for orders)
  One join-split with a VALID_JOIN_SPLIT proof: the note is spent, the new notes are free notes of
  this wallet (recovered from its seed like any other).`,
  options: {
    asset: { type: 'string' },
    into: { type: 'string' },
    amounts: { type: 'string' },
    note: { type: 'string' },
    'no-wait': { type: 'boolean' },
  },
  async run({ out, paths, values }) {
    const intoArg = str(values, 'into');
    const amountsArg = str(values, 'amounts');
    const noteArg = str(values, 'note');
    if ((intoArg === undefined) === (amountsArg === undefined))
      throw new UsageError('wallet split needs one of --into N and --amounts X,Y,...');
    if (!noteArg && !str(values, 'asset')) throw new UsageError('wallet split needs --asset (or --note)');
    const into = intoArg === undefined ? undefined : positiveIntOption('into', intoArg, 2);
    if (into !== undefined && (into < 2 || into > 8))
      throw new UsageError(`--into must be 2 to 8, got ${into}`);
    const what = into === undefined ? { amounts: list(amountsArg ?? '', 'amounts') } : { into };
    const wallet = openWallet(paths);
    return withClient(paths, { wallet }, async (client) => {
      const asset = await syncedAsset(
        out,
        client,
        str(values, 'asset'),
        noteArg === undefined ? undefined : [noteArg],
      );
      if (!noteArg && what.into !== undefined && wallet.freeNotes(asset.mint).length === 0)
        throw new CliError(
          `no free ${asset.name} note to split: deposit one with \`nightjar wallet deposit --asset ${asset.name} --amount X\``,
          EXIT.wallet,
        );
      const res = await joinSplitProgress(
        out,
        client,
        asset,
        `splitting a ${asset.name} note`,
        values['no-wait'] === true,
        (waits) =>
          splitNote(client, {
            mint: asset.mint,
            ...what,
            ...(noteArg ? { commitment: noteArg } : {}),
            ...waits,
          }),
      );
      const spent = res.spent[0]!;
      const notes = res.notes.map((n) => noteRow(n, asset));
      out.result(
        {
          signature: res.signature,
          asset: asset.name,
          mint: asset.mint,
          spent: res.spent.map((n) => noteRow(n, asset)),
          notes,
        },
        [
          `split note ${spent.commitment} (${units(spent.amount, asset)}) into ${notes.length} notes (tx ${res.signature}):`,
          ...notes.map((n) => `  ${n.commitment}  ${n.amount} ${n.asset}`),
          ...(values['no-wait']
            ? ['(not final yet: they back orders once `nightjar wallet notes` lists them free)']
            : []),
        ].join('\n'),
      );
      return 0;
    });
  },
};

export const walletMerge: Command = {
  name: 'wallet merge',
  summary: 'merge 2 to 4 free notes into one (e.g. the change of partial fills)',
  usage: `nightjar wallet merge --asset A [--notes C1,C2[,C3,C4]] [--no-wait]

  --asset A         SOL, USDC, ETH (or a Base58 mint); optional with --notes
  --notes LIST      2 to 4 free notes to merge (default: up to 4 of the smallest free notes)
  --no-wait         do not wait until the merged note is final (usable for orders)
  One join-split with a VALID_JOIN_SPLIT proof: the notes are spent, one note of their total is
  a free note of this wallet.`,
  options: {
    asset: { type: 'string' },
    notes: { type: 'string' },
    'no-wait': { type: 'boolean' },
  },
  async run({ out, paths, values }) {
    const notesArg = str(values, 'notes');
    const commitments = notesArg === undefined ? undefined : list(notesArg, 'notes');
    if (commitments && (commitments.length < 2 || commitments.length > 4))
      throw new UsageError(`--notes names 2 to 4 notes (got ${commitments.length})`);
    if (!commitments && !str(values, 'asset'))
      throw new UsageError('wallet merge needs --asset (or --notes)');
    const wallet = openWallet(paths);
    return withClient(paths, { wallet }, async (client) => {
      const asset = await syncedAsset(out, client, str(values, 'asset'), commitments);
      const res = await joinSplitProgress(
        out,
        client,
        asset,
        `merging ${asset.name} notes`,
        values['no-wait'] === true,
        (waits) =>
          mergeNotes(client, { mint: asset.mint, ...(commitments ? { commitments } : {}), ...waits }),
      );
      const note = noteRow(res.note, asset);
      out.result(
        {
          signature: res.signature,
          asset: asset.name,
          mint: asset.mint,
          spent: res.spent.map((n) => noteRow(n, asset)),
          note,
        },
        `merged ${res.spent.length} ${asset.name} notes into note ${note.commitment} of ${note.amount} ${note.asset} (tx ${res.signature})`,
      );
      return 0;
    });
  },
};
