/**
 * `@nightjar/ledger/client` is what the SDK imports: a client of a ledger must not load the
 * ledger's SQLite store or its HTTP server. Each of those packages is mocked to throw when loaded,
 * so importing an entry that reaches either fails.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('better-sqlite3', () => {
  throw new Error('better-sqlite3 was loaded');
});
vi.mock('fastify', () => {
  throw new Error('fastify was loaded');
});

describe('@nightjar/ledger/client', () => {
  it('loads without better-sqlite3 or fastify', async () => {
    const client = await import('@nightjar/ledger/client');
    expect(typeof client.RpcLedgerClient).toBe('function');
    expect(typeof client.signTransaction).toBe('function');
    expect(client.RPC_ERRORS).toBeDefined();
    expect(typeof client.RpcError).toBe('function');
  });

  it('the full entry does load them (the mocks above would notice)', async () => {
    await expect(import('@nightjar/ledger')).rejects.toThrow(/mocking a module/);
  });
});
