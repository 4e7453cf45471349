// The end-to-end suite (npm run e2e): node environment, one file at a time,
// long timeouts. It expects web/dist and OFICINA_BIN (see e2e/harness.ts).

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    bail: 1,
    // A second try for a test that lost a race with the page on a loaded
    // machine; the flaky reporter names every test that needed it.
    retry: 1,
    reporters: ['verbose', './e2e/flaky-reporter.ts'],
  },
});
