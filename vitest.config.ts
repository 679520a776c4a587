import { defineConfig } from 'vitest/config';

import { PROOF_TESTS, SOURCE_CONDITIONS } from './vitest.shared.js';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      {
        ...SOURCE_CONDITIONS,
        test: {
          name: 'proofs',
          include: [`packages/*/{src,test}/${PROOF_TESTS}`],
          // After every package project, one file at a time (see vitest.shared.ts).
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
