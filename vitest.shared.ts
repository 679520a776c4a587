import { configDefaults } from 'vitest/config';

/**
 * Test files that prove for real with the VALID_MATCH key (directly, or through a started
 * `nightjar` venue that settles a match) or check a whole ceremony: each keeps both cores busy for
 * tens of seconds to minutes. Each package project leaves them out; the root
 * config runs them in a group of their own, one file at a time, after every other test, so they
 * neither starve timing-sensitive tests nor each other.
 */
export const PROOF_TESTS = '**/*.proofs.test.ts';

/** What a package project excludes: vitest's defaults and the proof tests. */
export const PACKAGE_EXCLUDE = [...configDefaults.exclude, PROOF_TESTS];

/**
 * The unit tests, which `npm run test:unit` runs as the inner loop: the test files beside their
 * code, every `*.test.ts` under a package's `src/` folder. The rule for a newcomer: a test that starts a venue
 * (an engine in process over HTTPS, a child process, the `nightjar` CLI), a ledger node or a
 * browser, or makes a real proof, lives under the package's `test/` folder (a real proof also
 * ends in `.proofs.test.ts`); anything else may sit beside its code and so runs in the inner loop.
 */
export const UNIT_TESTS = 'packages/*/src/**/*.test.ts';

/** What the unit run excludes: as a package project, and so never a proof test. */
export const UNIT_EXCLUDE = PACKAGE_EXCLUDE;

/**
 * Default per-test timeout of the package projects. vitest's 5 s is a CPU budget, not a hang
 * detector, on this project's shared two-core machines: on a slow day a 20-level Merkle rebuild
 * or a batch of pairings takes longer beside the proving tests. Hangs still end, a minute later.
 */
export const PACKAGE_TEST_TIMEOUT_MS = 60_000;

/**
 * In the repository every `@nightjar/*` import resolves to the package's TypeScript sources (the
 * "nightjar-source" export condition; without it, to the compiled dist/ an installed package
 * uses). Spread into each project's config, before `test`.
 */
export const SOURCE_CONDITIONS = {
  resolve: { conditions: ['nightjar-source', 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: ['nightjar-source', 'module', 'node', 'development|production'] } },
};
