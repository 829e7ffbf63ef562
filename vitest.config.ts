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
      // With TEST_DATABASE_URL set (CI), `npm run test:hard` also runs the integration suite against that external
      // server (Debian's PostgreSQL, older than the embedded one): the files whose SQL, transactions, locks and
      // notifications could behave differently there. `npm test` runs the embedded project only (the external run
      // added 130 s, taking it past 15 minutes on 2 cores). The rest run once, above: contracts, the web app's
      // units, the embedded cluster's own start-up, and the suites about HTTP, sessions and pages (hostile input,
      // session expiry, sign-up forms, the access matrix, the HTML shell): the external run took 137 s without
      // them, 203 s with.
      ...(testDatabaseUrl
        ? [
            {
              test: {
                ...shared,
                name: 'external',
                include: ['server/**/*.test.ts'],
                exclude: [
                  'server/db/embedded.test.ts',
                  'server/test/hard/{hostile-input,sessions,access-matrix,uploads,time-zones}.test.ts',
                  'server/features/accounts/sign-up-sign-in.test.ts',
                  'server/web-app/*.test.ts',
                ],
                env: { EVENTRY_TEST_DB: 'external' },
              },
            },
          ]
        : []),
    ],
  },
});
