import { defineConfig } from 'vitest/config';
import { readTestEnv } from './server/env';

const { testDatabaseUrl } = readTestEnv();

const shared = {
  globalSetup: ['./server/test/global-setup.ts'],
  setupFiles: ['./server/test/setup-file.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  include: ['contracts/**/*.test.ts', 'server/**/*.test.ts', 'web/src/**/*.test.ts'],
};

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: 'embedded' } },
      // With TEST_DATABASE_URL set (CI), the integration suite also runs against that external server.
      ...(testDatabaseUrl ? [{ test: { ...shared, name: 'external', env: { EVENTRY_TEST_DB: 'external' } } }] : []),
    ],
  },
});
