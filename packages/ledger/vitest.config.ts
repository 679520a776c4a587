import { defineProject } from 'vitest/config';

import { PACKAGE_EXCLUDE, PACKAGE_TEST_TIMEOUT_MS, SOURCE_CONDITIONS } from '../../vitest.shared.js';

export default defineProject({
  ...SOURCE_CONDITIONS,
  test: {
    name: 'ledger',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: PACKAGE_EXCLUDE,
    testTimeout: PACKAGE_TEST_TIMEOUT_MS,
    hookTimeout: PACKAGE_TEST_TIMEOUT_MS,
  },
});
