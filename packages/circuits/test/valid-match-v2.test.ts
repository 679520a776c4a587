/**
 * VALID_MATCH v2 through its compiled witness calculator and r1cs: honest matches satisfy every
 * constraint and expose the public inputs in the contract's order; each rule of the README's
 * "VALID_MATCH v2" table is broken by one forged input (all else consistent) that the circuit
 * rejects at that rule's constraint (circom asserts every constraint while computing the witness).
 */
import { VALID_MATCH_V2_PUBLIC_INPUTS, validMatchV2PublicSignals } from '@nightjar/crypto';
import { describe, expect, it } from 'vitest';

import { CIRCUITS } from '../src/artifacts.js';
import {
  validMatchV2Witness,
  type MatchOrderTerms,
  type ValidMatchV2Params,
} from '../src/match-witness-v2.js';
import { SettlementWitnessError } from '../src/witness-v2.js';
import { assertAt, getWire, num2BitsAssert, setWire } from './helpers.js';
import { ATTACKER, FEE_OWNER } from './match-fixture.js';
import {
  ASK_ORDER,
  BID_ORDER,
  MEMOS,
  PARTIAL,
  SETTLE_BY,
  forgeMatchV2,
  matchV2Params,
  type MatchForgery,
  type MatchV2Setup,
} from './match-v2-fixture.js';
import { circuitV2Suite, r1csSatisfiedV2, witnessV2 } from './v2-helpers.js';

const F = 'valid_match_v2.circom';
const LIB = 'settlement_v2.circom';
const u64At = (template: string, statement: string) => num2BitsAssert(template, statement, F);
const LINE = {
  underBid: u64At('ValidMatchV2', 'underBid.in <== bid_price_limit - price'),
  overAsk: u64At('ValidMatchV2', 'overAsk.in <== price - ask_price_limit'),
  nonEmpty: assertAt('NonZero', LIB, 'in * inv === 1'),
  quoteEq: assertAt('ValidMatchV2', F, 'qp === quote * price_scale + quote_rem'),
  remBelow: u64At('ValidMatchV2', 'remBelow.in <== price_scale - 1 - quote_rem'),
  feeEq: assertAt('FeeFloor', F, 'num === fee * 10000 + rem'),
  feeRemMax: u64At('FeeFloor', 'remMax.in <== 9999 - rem'),
  tag: assertAt('MatchParty', F, 'tag.out === use_tag'),
  left: u64At('MatchParty', 'leftBits.in <== left'),
  minFill: u64At('MatchParty', 'minFill.in <== quantity - min_fill_size'),
  alive: u64At('MatchParty', 'alive.in <== expiry_slot - settle_by_slot - 1'),
  change: u64At('MatchParty', 'changeBits.in <== change'),
  conservation: assertAt('MatchParty', F, 'amount === pays + fee + change'),
  tradeOut: assertAt('MatchParty', F, 'tradeOut.out === trade_out_slot'),
  changeOut: assertAt('MatchParty', F, 'changeOut.out === change_slot'),
  feeOut: assertAt('MatchParty', F, 'feeOut.out === fee_slot'),
};

const fullFill: MatchV2Setup = {
  ...PARTIAL,
  // Notes holding exactly quote + fee and q + fee, orders of exactly q: every change is 0.
  bid: { ...PARTIAL.bid, amount: 7_518n, order: { ...BID_ORDER, amount: 3_000n } },
  ask: { ...PARTIAL.ask, amount: 3_007n, order: { ...ASK_ORDER, amount: 3_000n } },
};

const HONEST: Record<string, MatchV2Setup> = {
  'partial fill on both sides': PARTIAL,
  'full fill: zero-value change notes on both sides': fullFill,
  'zero fee: zero-value fee notes': { ...PARTIAL, feeBps: 0n },
  'at both limits, at both min fills, expiring the slot after settle_by': {
    ...PARTIAL,
    quantity: 1_000n,
    price: 2_500_000n,
    bid: { ...PARTIAL.bid, order: { ...BID_ORDER, priceLimit: 2_500_000n, minFillSize: 1_000n } },
    ask: {
      ...PARTIAL.ask,
      order: { ...ASK_ORDER, priceLimit: 2_500_000n, minFillSize: 1_000n, expirySlot: SETTLE_BY + 1n },
    },
  },
  'an ask at limit 0, a zero quote (q * p < price_scale)': {
    ...PARTIAL,
    quantity: 3n,
    price: 100n,
    bid: { ...PARTIAL.bid, amount: 50n, order: { ...BID_ORDER, minFillSize: 0n } },
    ask: { ...PARTIAL.ask, amount: 10n, order: { ...ASK_ORDER, priceLimit: 0n, minFillSize: 1n } },
  },
  'largest u64 amounts, price and price scale': {
    quantity: (1n << 64n) - 1n,
    price: (1n << 64n) - 1n,
    priceScale: (1n << 64n) - 1n,
    feeBps: 0n,
    settleBySlot: (1n << 64n) - 2n,
    bid: {
      ...PARTIAL.bid,
      amount: (1n << 64n) - 1n,
      order: {
        ...BID_ORDER,
        amount: (1n << 64n) - 1n,
        priceLimit: (1n << 64n) - 1n,
        expirySlot: (1n << 64n) - 1n,
      },
    },
    ask: {
      ...PARTIAL.ask,
      amount: (1n << 64n) - 1n,
      order: { ...ASK_ORDER, amount: (1n << 64n) - 1n, expirySlot: (1n << 64n) - 1n },
    },
  },
};

const reject = (s: MatchV2Setup, f: MatchForgery) => witnessV2('valid_match_v2', forgeMatchV2(s, f));

describe('VALID_MATCH v2 circuit', () => {
  circuitV2Suite('valid_match_v2', 9_464);

  it('CIRCUITS lists the contract public inputs (README "VALID_MATCH v2")', () => {
    expect(CIRCUITS.valid_match_v2.publicInputs).toEqual([...VALID_MATCH_V2_PUBLIC_INPUTS]);
  });

  it.each(Object.entries(HONEST))(
    'honest: %s satisfies the r1cs, public wires = validMatchV2PublicSignals',
    async (_label, setup) => {
      const w = validMatchV2Witness(matchV2Params(setup));
      const wtns = await witnessV2('valid_match_v2', w.input);
      expect(await r1csSatisfiedV2('valid_match_v2', wtns)).toBe(true);
      // No outputs: wire 0 is the constant 1, the public inputs follow in declaration order.
      const wires = VALID_MATCH_V2_PUBLIC_INPUTS.map((_, i) => getWire(wtns, i + 1));
      expect(wires).toEqual(validMatchV2PublicSignals(w.publicInputs));
      // All six outputs are present and none is 0, zero-value ones included.
      expect(w.outputs).toHaveLength(6);
      for (const o of w.outputs) expect(o.commitment).not.toBe(0n);
    },
  );

  it('every public input is constrained: changing any one breaks the r1cs', async () => {
    const wtns = await witnessV2('valid_match_v2', validMatchV2Witness(matchV2Params(PARTIAL)).input);
    for (let i = 0; i < VALID_MATCH_V2_PUBLIC_INPUTS.length; i++) {
      const forged = setWire(wtns, i + 1, getWire(wtns, i + 1) + 1n);
      expect(await r1csSatisfiedV2('valid_match_v2', forged), VALID_MATCH_V2_PUBLIC_INPUTS[i]).toBe(false);
    }
  });

  it('the forger reproduces validMatchV2Witness exactly when nothing is forged', () => {
    for (const setup of Object.values(HONEST))
      expect(forgeMatchV2(setup)).toEqual(validMatchV2Witness(matchV2Params(setup)).input);
  });

  describe('the order terms', () => {
    it('rejects a price above the bid limit', async () => {
      await expect(reject({ ...PARTIAL, price: BID_ORDER.priceLimit + 1n }, {})).rejects.toThrow(
        LINE.underBid,
      );
    });

    it("rejects a price below the ask limit (the review's theft: a 10-unit ask settled at 0)", async () => {
      const theft: MatchV2Setup = {
        ...PARTIAL,
        quantity: 10n,
        price: 0n,
        bid: { ...PARTIAL.bid, amount: 1n, order: { ...BID_ORDER, minFillSize: 1n } },
        ask: { ...PARTIAL.ask, amount: 10n, order: { ...ASK_ORDER, amount: 10n, minFillSize: 1n } },
      };
      await expect(reject(theft, {})).rejects.toThrow(LINE.overAsk);
      await expect(reject({ ...PARTIAL, price: ASK_ORDER.priceLimit - 1n }, {})).rejects.toThrow(
        LINE.overAsk,
      );
    });

    it('rejects a quantity above either order’s amount left', async () => {
      const bidSmall = { ...PARTIAL, bid: { ...PARTIAL.bid, order: { ...BID_ORDER, amount: 2_999n } } };
      await expect(reject(bidSmall, {})).rejects.toThrow(LINE.left);
      const askSmall = { ...PARTIAL, ask: { ...PARTIAL.ask, order: { ...ASK_ORDER, amount: 2_999n } } };
      await expect(reject(askSmall, {})).rejects.toThrow(LINE.left);
    });

    it('rejects a quantity under either order’s min fill', async () => {
      const bidMin = { ...PARTIAL, bid: { ...PARTIAL.bid, order: { ...BID_ORDER, minFillSize: 3_001n } } };
      await expect(reject(bidMin, {})).rejects.toThrow(LINE.minFill);
      const askMin = { ...PARTIAL, ask: { ...PARTIAL.ask, order: { ...ASK_ORDER, minFillSize: 3_001n } } };
      await expect(reject(askMin, {})).rejects.toThrow(LINE.minFill);
    });

    it('rejects an empty match', async () => {
      const noMin = {
        ...PARTIAL,
        quantity: 0n,
        bid: { ...PARTIAL.bid, order: { ...BID_ORDER, minFillSize: 0n } },
        ask: { ...PARTIAL.ask, order: { ...ASK_ORDER, minFillSize: 0n } },
      };
      await expect(reject(noMin, {})).rejects.toThrow(LINE.nonEmpty);
    });

    it('rejects an order that expires at or before settle_by_slot', async () => {
      const expired = { ...PARTIAL, ask: { ...PARTIAL.ask, order: { ...ASK_ORDER, expirySlot: SETTLE_BY } } };
      await expect(reject(expired, {})).rejects.toThrow(LINE.alive);
      await expect(reject({ ...PARTIAL, settleBySlot: BID_ORDER.expirySlot }, {})).rejects.toThrow(
        LINE.alive,
      );
    });

    it('rejects a swapped side: an ask’s lock opened as the bid, a bid’s as the ask', async () => {
      await expect(reject(PARTIAL, { tagTerms: { bid: { side: 1 } } })).rejects.toThrow(LINE.tag);
      await expect(reject(PARTIAL, { tagTerms: { ask: { side: 0 } } })).rejects.toThrow(LINE.tag);
    });

    it('rejects a wrong digest: terms that are not the ones the use tag binds', async () => {
      // The engine claims a higher bid limit, a lower min fill, a later expiry, more left, another
      // order or market than the owner signed and proved.
      const forged: MatchForgery['tagTerms'][] = [
        { bid: { priceLimit: 2_400_000n } },
        { ask: { minFillSize: 4_000n } },
        { ask: { expirySlot: 5_001n } },
        { bid: { amount: 2_000n } },
        { ask: { orderId: 1n } },
        { bid: { marketLo: 7n } },
      ];
      for (const tagTerms of forged) await expect(reject(PARTIAL, { tagTerms })).rejects.toThrow(LINE.tag);
    });
  });

  describe('value and fees (DESIGN 4)', () => {
    it('rejects a quote other than the exact floor', async () => {
      // A larger ask trade-out paid by a smaller bid change: each side conserves, the quote does not.
      await expect(
        reject(PARTIAL, { quote: 7_501n, quoteRem: 0n, bidChange: 10_000n - 7_501n - 18n }),
      ).rejects.toThrow(LINE.quoteEq);
      // quote one lower, its remainder one price_scale higher: the equation holds, the remainder is too big.
      await expect(reject(PARTIAL, { quote: 7_499n, quoteRem: 1_000_000n })).rejects.toThrow(LINE.remBelow);
    });

    it('rejects a price_scale of 0 (no remainder is below it)', async () => {
      await expect(reject({ ...PARTIAL, priceScale: 0n }, {})).rejects.toThrow(LINE.remBelow);
    });

    it('rejects a fee that is not exact', async () => {
      await expect(
        reject(PARTIAL, { bidFee: 19n, bidFeeRem: 7_500n, bidChange: 10_000n - 7_500n - 19n }),
      ).rejects.toThrow(LINE.feeEq);
      await expect(
        reject(PARTIAL, { askFee: 6n, askFeeRem: 5_000n, askChange: 5_000n - 3_000n - 6n }),
      ).rejects.toThrow(LINE.feeEq);
      // One less fee and the remainder over 9,999: the equation holds, the remainder bound does not.
      await expect(
        reject(PARTIAL, { askFee: 6n, askFeeRem: 5_000n + 10_000n, askChange: 5_000n - 3_000n - 6n }),
      ).rejects.toThrow(LINE.feeRemMax);
    });

    it('rejects value not conserved: a change larger than the note leaves', async () => {
      await expect(reject(PARTIAL, { bidChange: 2_483n })).rejects.toThrow(LINE.conservation);
      await expect(reject(PARTIAL, { askChange: 1_994n })).rejects.toThrow(LINE.conservation);
    });

    it('rejects a note that cannot pay: its change wraps negative', async () => {
      const poorBid = { ...PARTIAL, bid: { ...PARTIAL.bid, amount: 7_517n } };
      await expect(reject(poorBid, {})).rejects.toThrow(LINE.change);
      const poorAsk = { ...PARTIAL, ask: { ...PARTIAL.ask, amount: 3_006n } };
      await expect(reject(poorAsk, {})).rejects.toThrow(LINE.change);
    });
  });

  describe('the six outputs', () => {
    it('rejects an output to another owner', async () => {
      await expect(reject(PARTIAL, { slotOwner: { 0: ATTACKER } })).rejects.toThrow(LINE.tradeOut);
      await expect(reject(PARTIAL, { slotOwner: { 4: ATTACKER } })).rejects.toThrow(LINE.changeOut);
      await expect(reject(PARTIAL, { slotOwner: { 2: ATTACKER } })).rejects.toThrow(LINE.feeOut);
      // The fee owner is the vault's; a fee note may not go to a trader either.
      await expect(reject(PARTIAL, { slotOwner: { 5: FEE_OWNER + 1n } })).rejects.toThrow(LINE.feeOut);
    });

    it('rejects a change note whose remainder is not the order’s amount left', async () => {
      // Unchanged amount: the remainder could be filled again for the full order.
      await expect(reject(PARTIAL, { remainderAmount: { bid: BID_ORDER.amount } })).rejects.toThrow(
        LINE.changeOut,
      );
      await expect(reject(PARTIAL, { remainderAmount: { ask: 0n } })).rejects.toThrow(LINE.changeOut);
    });

    it('rejects a zero-value output left out (0 in its slot)', async () => {
      // Full fill: both changes are zero-value notes, and their commitments must still be there.
      await expect(reject(fullFill, { slotValue: { 1: 0n } })).rejects.toThrow(LINE.changeOut);
      await expect(reject(fullFill, { slotValue: { 4: 0n } })).rejects.toThrow(LINE.changeOut);
      await expect(reject({ ...PARTIAL, feeBps: 0n }, { slotValue: { 2: 0n } })).rejects.toThrow(LINE.feeOut);
    });

    it('rejects any non-zero output dropped', async () => {
      for (const slot of [0, 1, 2, 3, 4, 5] as const)
        await expect(reject(PARTIAL, { slotValue: { [slot]: 0n } }), `slot ${slot}`).rejects.toThrow(
          /Assert Failed[\s\S]*template MatchParty_\d+ line: \d+/,
        );
    });
  });

  it('the builder refuses what the circuit would, with a stable code and side', () => {
    const refusal = (setup: MatchV2Setup, patch: Partial<ValidMatchV2Params> = {}) => {
      try {
        validMatchV2Witness({ ...matchV2Params(setup), ...patch });
      } catch (err) {
        expect(err).toBeInstanceOf(SettlementWitnessError);
        const { code, side } = err as SettlementWitnessError;
        return side ? `${code}/${side}` : code;
      }
      return 'accepted';
    };
    const bidOrder = (o: Partial<MatchOrderTerms>) => ({
      ...PARTIAL,
      bid: { ...PARTIAL.bid, order: { ...BID_ORDER, ...o } },
    });
    const askOrder = (o: Partial<MatchOrderTerms>) => ({
      ...PARTIAL,
      ask: { ...PARTIAL.ask, order: { ...ASK_ORDER, ...o } },
    });
    expect(refusal(PARTIAL)).toBe('accepted');
    expect(refusal({ ...PARTIAL, price: BID_ORDER.priceLimit + 1n })).toBe('price_outside_limit/bid');
    expect(refusal({ ...PARTIAL, price: ASK_ORDER.priceLimit - 1n })).toBe('price_outside_limit/ask');
    expect(refusal(bidOrder({ amount: 2_999n }))).toBe('above_remainder/bid');
    expect(refusal(askOrder({ minFillSize: 3_001n }))).toBe('below_min_fill/ask');
    expect(refusal(askOrder({ expirySlot: SETTLE_BY }))).toBe('order_expired/ask');
    expect(refusal(bidOrder({ orderId: 1n << 128n }))).toBe('order_terms/bid');
    expect(refusal({ ...PARTIAL, bid: { ...PARTIAL.bid, amount: 7_517n } })).toBe('insufficient_note/bid');
    expect(refusal({ ...PARTIAL, quantity: 0n })).toBe('quantity_zero');
    expect(refusal({ ...PARTIAL, priceScale: 0n })).toBe('price_scale_zero');
    const huge = { ...bidOrder({ amount: 1n << 63n }), quantity: 1n << 63n, price: 4n, priceScale: 1n };
    huge.ask = { ...PARTIAL.ask, order: { ...ASK_ORDER, amount: 1n << 63n, priceLimit: 0n } };
    expect(refusal(huge)).toBe('quote_overflow');
    expect(refusal(PARTIAL, { bid: { ...matchV2Params(PARTIAL).bid, useTag: 1n } })).toBe(
      'use_tag_mismatch/bid',
    );
    expect(refusal(PARTIAL, { memos: { ...MEMOS, outputShards: [0, 0, 0] } })).toBe('memo');
    expect(refusal(PARTIAL, { marketId: new Uint8Array(31) })).toBe('mint');
  });
});
