import { configDefaults } from 'vitest/config';

/**
 * Test files that prove for real with the VALID_MATCH key or check a whole ceremony (each keeps
 * both cores busy for tens of seconds to minutes). Each package project leaves them out; the root
 * config runs them in a group of their own, one file at a time, after every other test, so they
 * neither starve timing-sensitive tests nor each other.
 */
export const PROOF_TESTS = '**/*.proofs.test.ts';

/** What a package project excludes: vitest's defaults and the proof tests. */
export const PACKAGE_EXCLUDE = [...configDefaults.exclude, PROOF_TESTS];
