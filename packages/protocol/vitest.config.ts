import { defineProject } from 'vitest/config';

import { PACKAGE_EXCLUDE } from '../../vitest.shared.js';

export default defineProject({
  test: {
    name: 'protocol',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: PACKAGE_EXCLUDE,
  },
});
