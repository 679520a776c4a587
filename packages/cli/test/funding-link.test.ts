import type { Wallet } from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/exit-codes.js';
import { confirmRecipient, fundingLinkWarning, type Asker } from '../src/funding-link.js';
import { Output } from '../src/output.js';

const FUNDING = '8VRKn2i9eeEx7hVK9hPW5ZUeCN9qEpWrLG1uGUsG3dyY';
const FRESH = '4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM';
const wallet = { keys: { funding: { address: FUNDING } } } as unknown as Wallet;
const out = new Output(true);
const asker = (answer: string, interactive = true): Asker & { asked: string[] } => {
  const asked: string[] = [];
  return { interactive, asked, ask: async (q) => (asked.push(q), answer) };
};

describe('wallet withdraw to a funding address', () => {
  it('a fresh address needs no confirmation', async () => {
    expect(fundingLinkWarning(wallet, FRESH)).toBeUndefined();
    const a = asker('no');
    expect(await confirmRecipient(wallet, FRESH, { yes: false, json: false, out, asker: a })).toBe(false);
    expect(a.asked).toEqual([]);
  });

  it('says what the funding address links, and asks', async () => {
    expect(fundingLinkWarning(wallet, FUNDING)).toContain(
      'links this withdrawal (its amount and time) to those deposits, and so to this wallet',
    );
    const a = asker(' YES ');
    const human = new Output(false);
    expect(await confirmRecipient(wallet, FUNDING, { yes: false, json: false, out: human, asker: a })).toBe(
      true,
    );
    expect(a.asked).toHaveLength(1);
    await expect(
      confirmRecipient(wallet, FUNDING, { yes: false, json: false, out: human, asker: asker('n') }),
    ).rejects.toMatchObject({
      exitCode: 2,
      code: 'LINKS_FUNDING_ADDRESS',
      message: expect.stringMatching(/Not confirmed: pass --yes/),
    });
  });

  it('without a terminal (or with --json) refuses unless --yes', async () => {
    for (const opts of [
      { json: false, asker: asker('yes', false) },
      { json: true, asker: asker('yes', true) },
    ]) {
      const err = await confirmRecipient(wallet, FUNDING, { yes: false, out, ...opts }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CliError);
      expect(err).toMatchObject({ exitCode: 2, code: 'LINKS_FUNDING_ADDRESS' });
      expect((err as Error).message).toContain('pass --yes to accept the link, or --to a fresh address');
      expect(opts.asker.asked).toEqual([]);
    }
    expect(
      await confirmRecipient(wallet, FUNDING, { yes: true, json: true, out, asker: asker('no', false) }),
    ).toBe(true);
  });
});
