import { defineProject } from 'vitest/config';

import { PACKAGE_EXCLUDE, SOURCE_CONDITIONS } from '../../vitest.shared.js';

export default defineProject({
  ...SOURCE_CONDITIONS,
  test: {
    name: 'engine',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: PACKAGE_EXCLUDE,
    // A started engine loads three verification keys into verifier workers: seconds each on two
    // busy cores, and some tests start an engine twice.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
