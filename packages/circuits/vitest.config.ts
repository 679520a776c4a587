import { defineProject } from 'vitest/config';

import { PACKAGE_EXCLUDE, SOURCE_CONDITIONS } from '../../vitest.shared.js';

export default defineProject({
  ...SOURCE_CONDITIONS,
  test: {
    name: 'circuits',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: PACKAGE_EXCLUDE,
    // Witness calculations and r1cs checks of VALID_MATCH take seconds each on two shared cores.
    testTimeout: 60_000,
  },
});
