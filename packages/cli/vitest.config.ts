import { defineProject } from 'vitest/config';

import { PACKAGE_EXCLUDE, SOURCE_CONDITIONS } from '../../vitest.shared.js';

export default defineProject({
  ...SOURCE_CONDITIONS,
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: PACKAGE_EXCLUDE,
    // Each test spawns the real `nightjar` binary (compiled dist/ when current, else the sources
    // through tsx: 0.4 to 1 s each on an idle machine, many times that on a slow day), so the 5 s
    // default is far too short.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
