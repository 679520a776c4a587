/** `nightjar wallet withdraw`: pay any amount (or a whole note) out, in one transaction. */
import { parseUnits, withdraw, type WalletNote } from '@nightjar/sdk';
import { parseAddress } from '@nightjar/protocol';
import { UsageError } from '../args.js';
import { str, type Command } from '../command.js';
import { openWallet, withClient } from '../connect.js';
import { confirmRecipient } from '../funding-link.js';
import { explained, FINAL_WAIT_MS, noteRow, syncedAsset, units, untilFinal } from '../notes.js';

/** The smallest note of at least `amount` (what the SDK's withdraw picks), if any. */
function smallestCovering(notes: readonly WalletNote[], amount: bigint): WalletNote | undefined {
  return notes
    .filter((n) => n.amount >= amount)
    .sort((a, b) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0))[0];
}

export const walletWithdraw: Command = {
  name: 'wallet withdraw',
  summary: 'pay any amount (or a whole note) out to a ledger address, in one transaction',
  usage: `nightjar wallet withdraw --to ADDRESS (--asset A --amount X | --note COMMITMENT [--amount X]) [--yes]

  --to ADDRESS      recipient (required): a fresh address of yours links the withdrawal to nothing;
                    the wallet's funding address links it to every deposit, so the CLI says so and
                    asks (without a terminal it refuses unless --yes)
  --asset/--amount  any amount, human units: the smallest free note that covers X pays it and the
                    rest comes back to the wallet as a change note, in the same transaction
  --note C          pay out this note (see \`nightjar wallet notes\`): whole, or --amount X of it
  --yes             accept withdrawing to the funding address without asking (scripts)
  The withdrawal is signed by a fresh one-time key, never the funding key.`,
  options: {
    note: { type: 'string' },
    asset: { type: 'string' },
    amount: { type: 'string' },
    to: { type: 'string' },
    yes: { type: 'boolean' },
  },
  async run({ out, paths, values }) {
    const noteArg = str(values, 'note');
    const assetName = str(values, 'asset');
    const amount = str(values, 'amount');
    const to = str(values, 'to');
    if (!noteArg && !(assetName && amount))
      throw new UsageError('wallet withdraw needs --asset and --amount, or --note');
    if (!to)
      throw new UsageError(
        'wallet withdraw needs --to ADDRESS: the ledger address to pay (a fresh one of yours links nothing)',
      );
    if (!parseAddress(to)) throw new UsageError('--to must be a Base58 ledger address');
    const wallet = openWallet(paths);
    const linkFundingAddress = await confirmRecipient(wallet, to, {
      yes: values.yes === true,
      json: out.json,
      out,
    });
    return withClient(paths, { wallet }, async (client) => {
      const asset = await syncedAsset(out, client, assetName, noteArg === undefined ? undefined : [noteArg]);
      const atomic = amount === undefined ? undefined : parseUnits(amount, asset.decimals);
      if (atomic !== undefined && atomic <= 0n) throw new UsageError('--amount must be positive');
      // The note paid from: the one named, or the smallest free note that covers the amount.
      const from = noteArg ?? smallestCovering(wallet.freeNotes(asset.mint), atomic!)?.commitment;
      // It must be final: a fresh settlement output is usable once the engine's tree has it.
      if (from)
        await out.progress('waiting for the note to be final', untilFinal(client, from, FINAL_WAIT_MS));
      const value = atomic ?? wallet.notes.get(from!)!.amount;
      const res = await out.progress(`withdrawing ${units(value, asset)}`, async (stage) => {
        // One stage each, with its own time: the spend proof, then the transaction on the ledger.
        stage('proving the spend');
        const off = client.onProof((e) => {
          if (e.stage === 'done') stage('sending the transaction to the ledger');
        });
        try {
          return await explained(
            client,
            asset,
            withdraw(client, {
              ...(from ? { commitment: from } : { mint: asset.mint }),
              ...(atomic === undefined ? {} : { amount: atomic }),
              recipient: to,
              linkFundingAddress,
            }),
          );
        } finally {
          off();
        }
      });
      const change = res.change ? noteRow(res.change, asset) : undefined;
      out.result(
        {
          commitment: res.note.commitment,
          amount: res.amount,
          asset: asset.name,
          mint: res.note.mint,
          recipient: res.recipient,
          signature: res.signature,
          signer: res.signer,
          ...(change ? { change } : {}),
        },
        [
          `withdrew ${units(res.amount, asset)} (note ${res.note.commitment}) to ${res.recipient} (tx ${res.signature}, signed by one-time key ${res.signer})`,
          ...(change
            ? [`the rest stays in the wallet: ${change.commitment}  ${change.amount} ${change.asset}`]
            : []),
        ].join('\n'),
      );
      return 0;
    });
  },
};
