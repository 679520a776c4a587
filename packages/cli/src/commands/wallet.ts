/** `nightjar wallet init|deposit|balances|notes|split|merge|withdraw|recover`. */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import {
  createWallet,
  formatUnits,
  getBalances,
  mergeNotes,
  parseUnits,
  splitNote,
  syncWallet,
  withdraw,
  deposit,
  type Client,
  waitForInclusion,
  type WalletNote,
} from '@nightjar/sdk';
import { positiveIntOption, UsageError } from '../args.js';
import { listAssets, resolveAsset, type Asset } from '../assets.js';
import { walletFile, walletPassword } from '../config.js';
import { openWallet, withClient } from '../connect.js';
import { CliError, EXIT } from '../exit-codes.js';
import { str, type Command } from '../command.js';
import {
  assetOf,
  checkNotes,
  explainNoteError,
  FINAL_WAIT_MS,
  joinSplitStage,
  mergeHints,
  noteRow,
  units,
  WAITING_FOR_INPUTS,
} from '../notes.js';
import { hexToBytes, bytesToHex, parseAddress } from '@nightjar/protocol';
import { confirmRecipient } from '../funding-link.js';

export const walletInit: Command = {
  name: 'wallet init',
  summary: 'create a wallet (a new random seed) in the config directory',
  usage: `nightjar wallet init [--force] [--show-seed]

  Creates <home>/wallet.json, encrypted with $NIGHTJAR_WALLET_PASSWORD or a random password kept in
  <home>/wallet-password (0600). --show-seed prints the seed once: write it down to recover.
  --force replaces an existing wallet (its notes are lost unless you have its seed).`,
  options: { force: { type: 'boolean' }, 'show-seed': { type: 'boolean' } },
  async run({ out, paths, values }) {
    const path = walletFile(paths);
    if (existsSync(path) && !values.force)
      throw new CliError(`a wallet already exists at ${path}; pass --force to replace it`, EXIT.usage);
    const seed = new Uint8Array(randomBytes(32));
    const wallet = createWallet({ seed, path, password: walletPassword(paths, true) });
    wallet.save();
    const data = {
      path,
      funding_address: wallet.keys.funding.address,
      owner_commitment: wallet.ownerCommitment,
      ...(values['show-seed'] ? { seed: bytesToHex(seed) } : {}),
    };
    out.result(
      data,
      `wallet created at ${path}\nfunding address: ${data.funding_address}` +
        (data.seed ? `\nseed (keep it secret, it recovers the wallet): ${data.seed}` : ''),
    );
    return 0;
  },
};

/** Waits until the note is in the engine's tree, else exit 6 (timeout). */
async function untilFinal(client: Client, commitment: string, timeoutMs: number): Promise<void> {
  if (!(await waitForInclusion(client, { commitment, intervalMs: 500, timeoutMs })))
    throw new CliError(
      `note ${commitment} not final after ${timeoutMs / 1000}s; check \`nightjar status\``,
      EXIT.timeout,
    );
}

export const walletDeposit: Command = {
  name: 'wallet deposit',
  summary: 'deposit tokens from the funding account into a new note',
  usage: `nightjar wallet deposit --asset A --amount X [--faucet] [--no-wait]

  --asset A     SOL, USDC, ETH (or a Base58 mint)
  --amount X    human units, e.g. 200 or 1.5
  --faucet      dev ledger only: airdrop X to the funding account first
  --no-wait     do not wait for the note to be final (usable for orders)

  Round amounts (100, not 137.42) help: deposits are public, and an odd one is easy to trace on.`,
  options: {
    asset: { type: 'string' },
    amount: { type: 'string' },
    faucet: { type: 'boolean' },
    'no-wait': { type: 'boolean' },
  },
  async run({ out, paths, values }) {
    const assetName = str(values, 'asset');
    const amount = str(values, 'amount');
    if (!assetName || !amount) throw new UsageError('wallet deposit needs --asset and --amount');
    const wallet = openWallet(paths);
    return withClient(paths, { wallet }, async (client) => {
      const asset = await resolveAsset(client, assetName);
      const atomic = parseUnits(amount, asset.decimals);
      if (values.faucet)
        await client.ledger.requestAirdrop({
          owner: wallet.keys.funding.address,
          mint: asset.mint,
          amount: atomic.toString(),
        });
      const { note, signature } = await out.progress(
        `depositing ${amount} ${asset.name}`,
        deposit(client, { mint: asset.mint, amount: atomic, wait: 'landed' }),
      );
      if (!values['no-wait'])
        await out.progress(
          'waiting for the note to be final',
          untilFinal(client, note.commitment, FINAL_WAIT_MS),
        );
      out.result(
        { commitment: note.commitment, asset: asset.name, mint: asset.mint, amount: atomic, signature },
        `deposited ${amount} ${asset.name}: note ${note.commitment}`,
      );
      return 0;
    });
  },
};

export const walletBalances: Command = {
  name: 'wallet balances',
  summary: 'balances per asset, computed from the wallet notes',
  usage: `nightjar wallet balances [--no-sync]

  --no-sync   do not read the ledger first (faster, may be stale)`,
  options: { 'no-sync': { type: 'boolean' } },
  async run({ out, paths, values }) {
    const wallet = openWallet(paths);
    return withClient(paths, { wallet }, async (client) => {
      const assets = await listAssets(client);
      if (!values['no-sync'])
        await out.progress('syncing the wallet', syncWallet(client, { refreshOrders: true }));
      const balances = await getBalances(client, { sync: false });
      const rows = assets.map((a) => {
        const b = balances[a.mint] ?? { available: 0n, locked: 0n, pendingSettlement: 0n };
        return {
          asset: a.name,
          mint: a.mint,
          available: formatUnits(b.available, a.decimals),
          locked: formatUnits(b.locked, a.decimals),
          pending_settlement: formatUnits(b.pendingSettlement, a.decimals),
        };
      });
      out.result(
        rows,
        [
          'asset  available  locked  pending_settlement',
          ...rows.map((r) => `${r.asset.padEnd(5)}  ${r.available}  ${r.locked}  ${r.pending_settlement}`),
        ].join('\n'),
      );
      mergeHints(client, assets, out);
      return 0;
    });
  },
};

export const walletNotes: Command = {
  name: 'wallet notes',
  summary: "the wallet's notes and their state",
  usage: `nightjar wallet notes [--all]

  --all   include spent notes`,
  options: { all: { type: 'boolean' } },
  async run({ out, paths, values }) {
    const wallet = openWallet(paths);
    return withClient(paths, { wallet }, async (client) => {
      const assets = await listAssets(client);
      await out.progress('syncing the wallet', syncWallet(client, { refreshOrders: true }));
      const notes = [...wallet.notes.values()]
        .filter((n) => values.all || n.state !== 'spent')
        .map((n) => {
          const a = assets.find((x) => x.mint === n.mint);
          return {
            commitment: n.commitment,
            asset: a?.name ?? n.mint,
            amount: a ? formatUnits(n.amount, a.decimals) : n.amount.toString(),
            state: n.state,
            backs_order: wallet.orderBacking(n.commitment)?.orderId,
          };
        });
      out.result(
        notes,
        notes.length === 0
          ? 'no notes: deposit with `nightjar wallet deposit`'
          : notes
              .map(
                (n) =>
                  `${n.commitment}  ${n.amount} ${n.asset}  ${n.state}${n.backs_order ? `  backs ${n.backs_order}` : ''}`,
              )
              .join('\n'),
      );
      mergeHints(client, assets, out);
      return 0;
    });
  },
};

/** Comma-separated flag values, e.g. `--amounts 100,100,50`. */
function list(values: string, flag: string): string[] {
  const items = values.split(',').map((v) => v.trim());
  if (items.some((v) => v === '')) throw new UsageError(`--${flag} is a comma-separated list, e.g. A,B,C`);
  return items;
}

/** Runs a note action, its SDK errors explained in the asset's units. */
async function explained<T>(client: Client, asset: Asset, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw explainNoteError(err, client.wallet, asset);
  }
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
      await out.progress('syncing the wallet', syncWallet(client, { refreshOrders: true }));
      const mint = noteArg === undefined ? undefined : checkNotes(wallet, [noteArg]);
      const asset = await assetOf(client, str(values, 'asset'), mint);
      if (!noteArg && what.into !== undefined && wallet.freeNotes(asset.mint).length === 0)
        throw new CliError(
          `no free ${asset.name} note to split: deposit one with \`nightjar wallet deposit --asset ${asset.name} --amount X\``,
          EXIT.wallet,
        );
      const res = await out.progress(`splitting a ${asset.name} note`, (stage) => {
        stage(WAITING_FOR_INPUTS);
        return explained(
          client,
          asset,
          splitNote(client, {
            mint: asset.mint,
            ...what,
            ...(noteArg ? { commitment: noteArg } : {}),
            waitUsable: !values['no-wait'],
            waitMs: FINAL_WAIT_MS,
            onProgress: (p) => stage(joinSplitStage(p)),
          }),
        );
      });
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
      await out.progress('syncing the wallet', syncWallet(client, { refreshOrders: true }));
      const mint = commitments === undefined ? undefined : checkNotes(wallet, commitments);
      const asset = await assetOf(client, str(values, 'asset'), mint);
      const res = await out.progress(`merging ${asset.name} notes`, (stage) => {
        stage(WAITING_FOR_INPUTS);
        return explained(
          client,
          asset,
          mergeNotes(client, {
            mint: asset.mint,
            ...(commitments ? { commitments } : {}),
            waitUsable: !values['no-wait'],
            waitMs: FINAL_WAIT_MS,
            onProgress: (p) => stage(joinSplitStage(p)),
          }),
        );
      });
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
      await out.progress('syncing the wallet', syncWallet(client, { refreshOrders: true }));
      const mint = noteArg === undefined ? undefined : checkNotes(wallet, [noteArg]);
      const asset = await assetOf(client, assetName, mint);
      const atomic = amount === undefined ? undefined : parseUnits(amount, asset.decimals);
      if (atomic !== undefined && atomic <= 0n) throw new UsageError('--amount must be positive');
      // The note paid from: the one named, or the smallest free note that covers the amount.
      const from = noteArg ?? smallestCovering(wallet.freeNotes(asset.mint), atomic!)?.commitment;
      // It must be final: a fresh settlement output is usable once the engine's tree has it.
      if (from)
        await out.progress('waiting for the note to be final', untilFinal(client, from, FINAL_WAIT_MS));
      const value = atomic ?? wallet.notes.get(from!)!.amount;
      const res = await out.progress(`withdrawing ${units(value, asset)}`, (stage) => {
        stage('proving and sending the withdrawal');
        return explained(
          client,
          asset,
          withdraw(client, {
            ...(from ? { commitment: from } : { mint: asset.mint }),
            ...(atomic === undefined ? {} : { amount: atomic }),
            recipient: to,
            linkFundingAddress,
          }),
        );
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

export const walletRecover: Command = {
  name: 'wallet recover',
  summary: 'rebuild a wallet from its seed by scanning the ledger',
  usage: `nightjar wallet recover --seed HEX [--force]

  --seed HEX   the seed printed by \`wallet init --show-seed\` (or $NIGHTJAR_WALLET_SEED)
  --force      replace an existing wallet file
  Finds every note of the wallet from the seed and the ledger alone: its deposits (the funding
  key's deposits on the ledger) and every settlement output (fill memos).`,
  options: { seed: { type: 'string' }, force: { type: 'boolean' } },
  async run({ out, paths, values }) {
    const seedHex = str(values, 'seed') ?? process.env.NIGHTJAR_WALLET_SEED;
    if (!seedHex || !/^([0-9a-f]{2}){32,}$/i.test(seedHex))
      throw new UsageError('wallet recover needs --seed with 64+ hex digits');
    const path = walletFile(paths);
    if (existsSync(path) && !values.force)
      throw new CliError(`a wallet already exists at ${path}; pass --force to replace it`, EXIT.usage);
    const wallet = createWallet({ seed: hexToBytes(seedHex), path, password: walletPassword(paths, true) });
    wallet.save();
    return withClient(paths, { wallet }, async (client) => {
      const res = await out.progress('recovering: scanning memos and the tree', syncWallet(client));
      const unspent = wallet.unspentNotes();
      out.result(
        {
          path,
          memos_stored: res.memosStored,
          notes: unspent.map((n) => ({
            commitment: n.commitment,
            mint: n.mint,
            amount: n.amount,
            state: n.state,
          })),
        },
        `recovered ${unspent.length} unspent note(s) into ${path}; see \`nightjar wallet balances\``,
      );
      return 0;
    });
  },
};
