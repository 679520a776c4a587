/**
 * `nightjar status`'s text: `/system/status` and `/transparency` (bodies shaped as the engine's
 * `operations.ts` answers them) as the tables docs/cli.md shows. No venue: fast.
 */
import { describe, expect, it } from 'vitest';
import { statusTable } from '../src/status-table.js';

const system = {
  matching: 'running',
  settlement: 'wired',
  ledger: 'connected',
  trading: 'open',
  draining: false,
  slot: 48213n,
};
const transparency = {
  slot: 48213n,
  engine: {
    boot_session_id: 'ab'.repeat(4),
    tee_keys: ['Key1', 'Key2'],
    signer_set_sha256: 'cd'.repeat(4),
    compose_hash: 'ef'.repeat(4),
  },
  shards: [{ tree_id: 0, merkle_root: '12'.repeat(4), leaf_count: 42n }],
  mints: [
    { mint: 'SoLMint', vault_balance: 5_000_000_000n, outstanding_note_value: 5_000_000_000n },
    { mint: 'UsdcMint', vault_balance: 700_000_000n, outstanding_note_value: 650_000_000n },
  ],
  orders: { resting: 3, pending_settlement: 1 },
  settlement: { batches: 7, confirmed_matches: 9, rejected_matches: 0 },
};

describe('nightjar status output', () => {
  it('prints the system status and the transparency snapshot as tables, the mints one row each', () => {
    expect(statusTable(system, transparency)).toBe(
      [
        'System status',
        '  matching    running',
        '  settlement  wired',
        '  ledger      connected',
        '  trading     open',
        '  draining    false',
        '  slot        48213',
        '',
        'Transparency',
        '  slot                          48213',
        '  engine.boot_session_id        abababab',
        '  engine.tee_keys               Key1, Key2',
        '  engine.signer_set_sha256      cdcdcdcd',
        '  engine.compose_hash           efefefef',
        '  orders.resting                3',
        '  orders.pending_settlement     1',
        '  settlement.batches            7',
        '  settlement.confirmed_matches  9',
        '  settlement.rejected_matches   0',
        '',
        'Transparency: shards',
        '  tree_id  merkle_root  leaf_count',
        '  0        12121212     42',
        '',
        'Transparency: mints',
        '  mint      vault_balance  outstanding_note_value',
        '  SoLMint   5000000000     5000000000',
        '  UsdcMint  700000000      650000000',
      ].join('\n'),
    );
  });

  it('no JSON blobs: an empty list is a dash, an unknown nested field a dotted row', () => {
    const text = statusTable({ matching: 'stopped' }, { engine: { tee_keys: [] }, extra: { a: { b: 1 } } });
    expect(text).toContain('engine.tee_keys  —');
    expect(text).toContain('extra.a.b        1');
    expect(text).not.toMatch(/[{[]/);
  });
});
