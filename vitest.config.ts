import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { readTestEnv } from './server/env';

const { testDatabaseUrl } = readTestEnv();

const shared = {
  globalSetup: ['./server/test/global-setup.ts'],
  setupFiles: ['./server/test/setup-file.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  include: ['contracts/**/*.test.ts', 'server/**/*.test.ts', 'web/src/**/*.test.ts', 'scripts/**/*.test.ts'],
};

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, i.e. a single worker on a 2-core machine. The test
    // files spend much of their time waiting on PostgreSQL (another process): two workers there took the
    // embedded project from 187 to 99 s; three or four were no faster.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      { test: { ...shared, name: 'embedded' } },
      // With TEST_DATABASE_URL set (CI), the integration suite also runs against that external server: the
      // files that use a database. The rest (contracts, the web app's units, the embedded cluster's own
      // start-up) do not depend on which server it is and run once, above.
      ...(testDatabaseUrl
        ? [
            {
              test: {
                ...shared,
                name: 'external',
                include: ['server/**/*.test.ts'],
                exclude: ['server/db/embedded.test.ts'],
                env: { EVENTRY_TEST_DB: 'external' },
              },
            },
          ]
        : []),
    ],
  },
});
