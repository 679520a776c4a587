import { defineProject } from 'vitest/config';

import { PACKAGE_EXCLUDE } from '../../vitest.shared.js';

export default defineProject({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: PACKAGE_EXCLUDE,
    // Each test spawns the real `nightjar` binary (a Node start through tsx, about 1 s each on an
    // idle machine), so the 5 s default is too short when several run on two busy cores.
    testTimeout: 30_000,
  },
});
