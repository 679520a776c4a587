import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'circuits',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
