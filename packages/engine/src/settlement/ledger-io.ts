/**
 * The pipeline's only path to the ledger's write side: transactions are signed with the TEE key,
 * journaled, then sent, one at a time (the ledger refuses a nonce that does not advance, so
 * sends must reach it in nonce order). `awaitLanding` polls until the transaction is confirmed,
 * rebroadcasts it when overdue, and decides "lost" only from the ledger itself: a transaction
 * absent after the signer's nonce passed it can never land (the ledger re-checks nonces at landing).
 */
import {
  chainInfo,
  RpcError,
  RPC_ERRORS,
  signTransaction,
  type ChainInfo,
  type Instruction,
  type LedgerClient,
  type Transaction,
  type TransactionRecord,
} from '@nightjar/ledger';
import type { TeeKey } from './tee-key.js';

export type SendResult = 'accepted' | 'dropped' | 'refused' | 'unavailable';
export type Landing =
  | { kind: 'landed'; record: TransactionRecord }
  /** The ledger will never land it. */
  | { kind: 'lost' }
  /** Not decided within the budget (outage or slow ledger): still ambiguous. */
  | { kind: 'unknown' };

export interface LedgerIoOptions {
  /** Wall-clock budget of one `awaitLanding` call. */
  budgetMs: number;
  /** Resend an unseen transaction after this long. */
  rebroadcastAfterMs: number;
  sleep(ms: number): Promise<void>;
}

export class LedgerIo {
  private nonce = 0n;
  /** The chain every transaction is signed for (read at init). */
  private ledgerChain: ChainInfo | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  sends = 0;

  constructor(
    private readonly ledger: LedgerClient,
    private readonly key: TeeKey,
    private readonly options: LedgerIoOptions,
  ) {}

  get address(): string {
    return this.key.address;
  }

  /** The next nonce follows both the journal's and the ledger's last one. */
  async init(journalNonce: bigint): Promise<void> {
    this.ledgerChain = await chainInfo(this.ledger);
    const onChain = await this.ledger.getNonce({ signer: this.key.address });
    this.nonce = journalNonce > BigInt(onChain ?? '0') ? journalNonce : BigInt(onChain ?? '0');
  }

  /**
   * Signs `instruction` with the next nonce, hands the transaction to `journal` (which must make
   * it durable) and sends it. Serialized with every other send.
   */
  submit(
    instruction: Instruction,
    journal: (tx: Transaction) => void,
  ): Promise<{ tx: Transaction; sent: SendResult }> {
    const run = this.chain.then(async () => {
      if (!this.ledgerChain) throw new Error('LedgerIo.init must run before submit');
      this.nonce += 1n;
      // A registered TEE key owes no fresh signer's work (the ledger exempts the signer set).
      const tx = signTransaction(this.key.seed, this.nonce, instruction, this.ledgerChain);
      journal(tx);
      return { tx, sent: await this.send(tx) };
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Sends (or resends) a signed transaction; never throws. */
  async send(tx: Transaction): Promise<SendResult> {
    this.sends += 1;
    try {
      await this.ledger.sendTransaction({ transaction: tx });
      return 'accepted';
    } catch (err) {
      if (err instanceof RpcError && err.code === RPC_ERRORS.nodeTimeout) return 'dropped';
      if (err instanceof RpcError && err.code === RPC_ERRORS.transactionRejected) return 'refused';
      return 'unavailable';
    }
  }

  /** Polls until `tx` is confirmed, known lost, or the budget runs out. */
  async awaitLanding(tx: Transaction, budgetMs = this.options.budgetMs): Promise<Landing> {
    const started = Date.now();
    let lastSend = started;
    let delay = 5;
    for (;;) {
      try {
        // Nonce first: if it already passed ours and the transaction is absent, it never lands.
        const onChain = BigInt((await this.ledger.getNonce({ signer: tx.signer })) ?? '0');
        const record = await this.ledger.getTransaction({ signature: tx.signature });
        if (record && record.confirmation_status !== 'processed') return { kind: 'landed', record };
        if (!record && onChain >= BigInt(tx.nonce)) return { kind: 'lost' };
        if (!record && Date.now() - lastSend > this.options.rebroadcastAfterMs) {
          lastSend = Date.now();
          await this.send(tx);
        }
      } catch {
        // Unreachable or erroring ledger: keep waiting within the budget; the text goes nowhere.
      }
      if (Date.now() - started > budgetMs) return { kind: 'unknown' };
      await this.options.sleep(delay);
      delay = Math.min(delay * 2, 250);
    }
  }
}
