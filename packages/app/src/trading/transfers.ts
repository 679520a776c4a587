/**
 * Money in and out of the wallet: the dev faucet (to the funding account), deposits into a new
 * note (resolved once it can back an order) and withdrawals to a recipient the user typed.
 */
import {
  deposit,
  formatUnits,
  fundingAddresses,
  isNightjarError,
  NightjarError,
  NIGHTJAR_ERROR__DEPOSIT_PENDING,
  NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS,
  parseUnits,
  requestFaucet,
  waitForInclusion,
  withdraw,
  type Client,
  type WalletNote,
} from '@nightjar/sdk';
import type {
  DepositRequest,
  FaucetRequest,
  FaucetResult,
  TransferView,
  WithdrawRequest,
} from '../api-types.js';
import { AppError, badRequest } from '../errors.js';
import type { Balances } from './balances.js';
import type { Asset } from './markets.js';
import type { TradingContext } from './context.js';

/** How long a deposit waits for its note to be usable (in the venue's tree): 31 slots and margin. */
const USABLE_WAIT_MS = 60_000;

export class Transfers {
  constructor(
    private readonly ctx: TradingContext,
    private readonly balances: Balances,
  ) {}

  private requireDev(): void {
    if (!this.ctx.venue.dev)
      throw new AppError(
        403,
        'DEV_ONLY',
        'the faucet exists on a dev venue only',
        "fund the wallet's funding account on the ledger, then deposit without `faucet`",
      );
  }

  /** The asset a request names and its positive amount in smallest units. */
  private async amountOf(client: Client, req: { asset: string; amount: string }): Promise<[Asset, bigint]> {
    const a = await this.ctx.markets.asset(client, req.asset);
    const units = parseUnits(req.amount, a.decimals);
    if (units <= 0n) throw badRequest('`amount` must be positive');
    return [a, units];
  }

  async faucet(req: FaucetRequest): Promise<FaucetResult> {
    this.requireDev();
    const client = this.ctx.venue.require();
    const [a, units] = await this.amountOf(client, req);
    const owner = this.ctx.wallet.keys.funding.address;
    const { signature } = await client.ledger.requestAirdrop({
      owner,
      mint: a.mint,
      amount: units.toString(),
    });
    const funding = BigInt(await client.ledger.getBalance({ owner, mint: a.mint }));
    this.ctx.balancesSoon();
    return {
      asset: a.symbol,
      amount: formatUnits(units, a.decimals),
      amount_units: units.toString(),
      ledger_signature: signature,
      funding: formatUnits(funding, a.decimals),
    };
  }

  /** Deposits into a new note and resolves once it can back an order (in the venue's tree). */
  async deposit(req: DepositRequest & { client_ref?: string }): Promise<TransferView> {
    const client = this.ctx.venue.require();
    const [a, units] = await this.amountOf(client, req);
    if (req.faucet) this.requireDev();
    const progress = this.ctx.progress('deposit', req.client_ref);
    return this.ctx.tracked(progress, async () => {
      if (req.faucet) {
        progress('faucet');
        await requestFaucet(client, { mint: a.mint, amount: units });
      }
      const { note, signature, usable } = await this.depositNote(client, a, units, progress);
      this.ctx.balancesSoon();
      return {
        id: note.commitment,
        kind: 'deposit',
        asset: a.symbol,
        amount: formatUnits(units, a.decimals),
        amount_units: units.toString(),
        ledger_signature: signature,
        state: usable ? 'usable' : 'landed',
      };
    });
  }

  private async depositNote(
    client: Client,
    a: Asset,
    units: bigint,
    progress: (stage: string, detail?: string) => void,
  ): Promise<{ note: WalletNote; signature: string; usable: boolean }> {
    try {
      return await deposit(client, {
        mint: a.mint,
        amount: units,
        wait: 'usable',
        waitMs: USABLE_WAIT_MS,
        onProgress: (p) => {
          progress(p.stage, p.stage === 'landed' ? 'waiting until final (usable for orders)' : undefined);
          if (p.stage !== 'sending') this.ctx.balancesSoon();
        },
      });
    } catch (err) {
      // Landed, not final within the wait: the note is in the wallet and backs orders soon.
      if (!isNightjarError(err, NIGHTJAR_ERROR__DEPOSIT_PENDING)) throw err;
      const note = this.ctx.wallet.notes.get(err.context.commitment)!;
      return { note, signature: err.context.signature, usable: false };
    }
  }

  /**
   * Withdraws any amount of a free balance to the recipient the user typed, in one transaction
   * signed by a one-time key; the rest of the note stays in the wallet as a change note. A
   * recipient that funded this wallet's deposits is refused (409 LINKS_FUNDING_ADDRESS, saying what
   * it links) unless `confirm_funding_link` is true.
   */
  async withdraw(req: WithdrawRequest): Promise<TransferView> {
    const client = this.ctx.venue.require();
    const [a, units] = await this.amountOf(client, req);
    const linkFundingAddress = req.confirm_funding_link === true;
    // Refused before anything is synced or proved (the SDK would refuse it too).
    if (fundingAddresses(this.ctx.wallet).includes(req.recipient) && !linkFundingAddress)
      throw new NightjarError(NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS, { recipient: req.recipient });
    const progress = this.ctx.progress('withdrawal', req.client_ref);
    return this.ctx.tracked(progress, async () => {
      progress('syncing', "reading the wallet's notes from the ledger");
      await this.balances.sync(client);
      // The note paid from must be in the venue's tree (a fresh change note may not be yet).
      const from = this.ctx.wallet
        .freeNotes(a.mint)
        .filter((n) => n.amount >= units)
        .sort((x, y) => (x.amount < y.amount ? -1 : x.amount > y.amount ? 1 : 0))[0];
      if (from) {
        progress('waiting_final', `note ${from.commitment.slice(0, 12)}… until the venue's tree has it`);
        await waitForInclusion(client, { commitment: from.commitment, timeoutMs: USABLE_WAIT_MS });
      }
      progress('proving', `the spend proof of ${formatUnits(units, a.decimals)} ${a.symbol}`);
      const res = await withdraw(client, {
        ...(from ? { commitment: from.commitment } : { mint: a.mint }),
        amount: units,
        recipient: req.recipient,
        linkFundingAddress,
      });
      progress('landed', `ledger transaction ${res.signature}`);
      this.ctx.balancesSoon();
      return {
        id: res.note.commitment,
        kind: 'withdrawal',
        asset: a.symbol,
        amount: formatUnits(units, a.decimals),
        amount_units: units.toString(),
        ledger_signature: res.signature,
        recipient: res.recipient,
        ...(res.change ? { change_units: res.change.amount.toString() } : {}),
        state: 'landed',
      };
    });
  }
}
