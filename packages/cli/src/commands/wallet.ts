/**
 * `nightjar wallet init|deposit|balances|notes|recover`; `split|merge` are in wallet-join-split.ts,
 * `withdraw` in wallet-withdraw.ts.
 */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createWallet, formatUnits, getBalances, parseUnits, syncWallet, deposit } from '@nightjar/sdk';
import { UsageError } from '../args.js';
import { listAssets, resolveAsset } from '../assets.js';
import { walletFile, walletPassword } from '../config.js';
import { openWallet, withClient } from '../connect.js';
import { CliError, EXIT } from '../exit-codes.js';
import { str, type Command } from '../command.js';
import { FINAL_WAIT_MS, mergeHints, untilFinal } from '../notes.js';
import { hexToBytes, bytesToHex } from '@nightjar/protocol';

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
