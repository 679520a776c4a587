/**
 * `@nightjar/protocol/ledger-client` is what the SDK imports: a client of a ledger must not load the
 * ledger's SQLite store or its HTTP server. Each of those packages is mocked to throw when loaded,
 * so importing an entry that reaches either fails. The SDK depends on this package, not on
 * `@nightjar/ledger`, so installing the SDK installs neither (docs/architecture.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

vi.mock('better-sqlite3', () => {
  throw new Error('better-sqlite3 was loaded');
});
vi.mock('fastify', () => {
  throw new Error('fastify was loaded');
});

describe('@nightjar/protocol/ledger-client', () => {
  it('loads without better-sqlite3 or fastify', async () => {
    const client = await import('@nightjar/protocol/ledger-client');
    expect(typeof client.RpcLedgerClient).toBe('function');
    expect(typeof client.signTransaction).toBe('function');
    expect(client.RPC_ERRORS).toBeDefined();
    expect(typeof client.RpcError).toBe('function');
  });

  it('the mocks above would notice a load of either', async () => {
    await expect(import('fastify')).rejects.toThrow(/mocking a module/);
    await expect(import('better-sqlite3')).rejects.toThrow(/mocking a module/);
  });

  it('the SDK and this package name no server package among their dependencies', () => {
    const servers = ['@nightjar/ledger', '@nightjar/engine', 'better-sqlite3', 'fastify', 'selfsigned'];
    for (const pkg of ['protocol', 'sdk']) {
      const manifest = JSON.parse(
        readFileSync(new URL(`../../${pkg}/package.json`, import.meta.url), 'utf8'),
      ) as { dependencies: Record<string, string> };
      expect(Object.keys(manifest.dependencies).filter((d) => servers.includes(d))).toEqual([]);
    }
  });
});
