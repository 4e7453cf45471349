// Names every test that passed only when tried again (vitest.e2e.config.ts
// gives each a second try). A browser walk on a loaded machine can lose a
// race with the page now and then; the second try keeps such a loss from
// failing the whole run, and this list keeps it from passing unseen: each
// name here is a race to fix in the test or in the product.

import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';

export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestCaseResult(test: TestCase): void {
    const d = test.diagnostic();
    if (d?.flaky) this.flaky.push(`${test.module.moduleId.replace(/^.*\/e2e\//, 'e2e/')} › ${test.fullName} (passed on try ${d.retryCount + 1})`);
  }

  onTestRunEnd(): void {
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/flaky.json', JSON.stringify(this.flaky, null, 2) + '\n');
    if (this.flaky.length === 0) return;
    process.stdout.write(`\nPassed only when tried again (${this.flaky.length}); test-results/flaky.json lists them:\n`);
    for (const name of this.flaky) process.stdout.write(`  flaky: ${name}\n`);
  }
}
