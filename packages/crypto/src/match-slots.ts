/**
 * The six output slots of a match (DESIGN.md section 6), fixed by role: the order in which
 * `settle_batch` lists a match's outputs and VALID_MATCH v2 binds their commitments
 * (valid-match-v2.ts). The bid's input (quote mint) yields its trade-out (base), change (quote)
 * and fee (quote); the ask's input (base mint) its trade-out (quote), change (base) and fee (base).
 */
export const MATCH_OUTPUT_SLOTS = [
  { name: 'bid_trade_out', side: 'bid', role: 1, mint: 'base' },
  { name: 'bid_change', side: 'bid', role: 2, mint: 'quote' },
  { name: 'bid_fee', side: 'bid', role: 3, mint: 'quote' },
  { name: 'ask_trade_out', side: 'ask', role: 1, mint: 'quote' },
  { name: 'ask_change', side: 'ask', role: 2, mint: 'base' },
  { name: 'ask_fee', side: 'ask', role: 3, mint: 'base' },
] as const;

export type MatchOutputSlot = 0 | 1 | 2 | 3 | 4 | 5;
