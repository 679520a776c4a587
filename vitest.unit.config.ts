import { defineConfig } from 'vitest/config';

import { PACKAGE_TEST_TIMEOUT_MS, SOURCE_CONDITIONS, UNIT_EXCLUDE, UNIT_TESTS } from './vitest.shared.js';

/**
 * `npm run test:unit`, the inner loop: only the unit tests beside their code (see UNIT_TESTS in
 * vitest.shared.ts), under a minute on two shared cores. `npm test` (vitest.config.ts) stays the
 * whole suite, these files included.
 */
export default defineConfig({
  ...SOURCE_CONDITIONS,
  test: {
    name: 'unit',
    include: [UNIT_TESTS],
    exclude: UNIT_EXCLUDE,
    // One module graph per worker instead of one per file: the files' imports (crypto, protocol)
    // are most of their time. Unit tests keep no state between files; `npm test` still isolates.
    isolate: false,
    testTimeout: PACKAGE_TEST_TIMEOUT_MS,
    hookTimeout: PACKAGE_TEST_TIMEOUT_MS,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
