import { relative } from 'node:path';

import type { Reporter, TestModule } from 'vitest/node';

/** Prints one plain closing line, "vitest: N passed, N failed[, N skipped]", that CI tooling reads. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    // The slowest files, so a CI log alone shows where the suite's time goes.
    const slowest = [...testModules]
      .map((m) => ({ id: m.moduleId, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12);
    process.stdout.write('\nslowest test files:\n');
    for (const f of slowest) {
      process.stdout.write(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${relative(process.cwd(), f.id)}\n`);
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed${tail}\n`);
  }
}
