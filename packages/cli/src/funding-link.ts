/**
 * `wallet withdraw --to` an address that funded this wallet's deposits: the withdrawal is public on
 * the ledger and names its recipient, so paying the funding address ties this withdrawal (its
 * amount and time) to every deposit from it, and so to the wallet. The CLI says so and asks; a
 * script passes `--yes`, and without a terminal and without `--yes` the CLI refuses.
 */
import { createInterface } from 'node:readline/promises';
import { fundingAddresses, type Wallet } from '@nightjar/sdk';
import { CliError, EXIT } from './exit-codes.js';
import type { Output } from './output.js';

/** What a withdrawal to `to` would link, or undefined when `to` funded none of the wallet's deposits. */
export function fundingLinkWarning(wallet: Wallet, to: string): string | undefined {
  if (!fundingAddresses(wallet).includes(to)) return undefined;
  return (
    `${to} is this wallet's funding address: it made every deposit of this wallet. A withdrawal ` +
    'to it is public on the ledger and links this withdrawal (its amount and time) to those ' +
    'deposits, and so to this wallet. Withdraw to a fresh address of yours instead to keep them apart.'
  );
}

/** How the CLI asks: a yes/no question on the terminal (tests pass their own). */
export interface Asker {
  interactive: boolean;
  ask(question: string): Promise<string>;
}

/** The terminal: interactive only when stdin and stderr are terminals. */
export const terminalAsker: Asker = {
  interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
  async ask(question) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  },
};

/**
 * Resolves when the withdrawal may go to `to` (true when it links the funding address and the user
 * accepted); throws a CliError (exit 2, code LINKS_FUNDING_ADDRESS) when it may not.
 */
export async function confirmRecipient(
  wallet: Wallet,
  to: string,
  options: { yes: boolean; json: boolean; out: Output; asker?: Asker },
): Promise<boolean> {
  const warning = fundingLinkWarning(wallet, to);
  if (!warning) return false;
  const refuse = (why: string) =>
    new CliError(
      `${warning} ${why}: pass --yes to accept the link, or --to a fresh address`,
      EXIT.usage,
      'LINKS_FUNDING_ADDRESS',
    );
  if (options.yes) {
    options.out.info(`warning: ${warning} (--yes: withdrawing anyway)`);
    return true;
  }
  const asker = options.asker ?? terminalAsker;
  if (options.json || !asker.interactive) throw refuse('Not confirmed (no terminal to ask)');
  process.stderr.write(`warning: ${warning}\n`);
  const answer = await asker.ask('Withdraw to the funding address anyway? Type "yes" to confirm: ');
  if (answer.trim().toLowerCase() !== 'yes') throw refuse('Not confirmed');
  return true;
}
