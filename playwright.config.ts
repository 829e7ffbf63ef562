import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { readTestEnv } from './server/env';
import { PAYMOB_STAND_IN } from './server/test/paymob-stand-in';

const { chromiumPath, e2ePortBase, ci } = readTestEnv();
export const E2E_APP_PORT = e2ePortBase;
export const E2E_SMTP_PORT = e2ePortBase + 1;
export const E2E_MAIL_HTTP_PORT = e2ePortBase + 2;
/** Paymob's stand-in (server/test/paymob-stand-in.ts): its checkout and kiosk pages are visited in the tests. */
export const E2E_PAYMOB_PORT = e2ePortBase + 3;
const dataDir = path.resolve(`.tmp/e2e-${e2ePortBase}`);

export default defineConfig({
  testDir: './e2e',
  outputDir: `.tmp/test-results-${e2ePortBase}`,
  fullyParallel: false,
  workers: 1,
  retries: ci ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_APP_PORT}`,
    // Recording a trace of every test cost a quarter to a third of the suite's time (booking.spec, in turns:
    // 233-270 s with it, 173-177 s without); a failure is run again with its trace (CI retries once).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], channel: undefined },
      dependencies: ['setup'],
    },
  ],
  webServer: [
    {
      command: `npx tsx e2e/support/mail-server.ts ${E2E_SMTP_PORT} ${E2E_MAIL_HTTP_PORT}`,
      url: `http://127.0.0.1:${E2E_MAIL_HTTP_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx server/test/paymob-stand-in.ts ${E2E_PAYMOB_PORT}`,
      url: `http://127.0.0.1:${E2E_PAYMOB_PORT}/kiosk`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `rm -rf ${dataDir} && node dist/server/main.js`,
      url: `http://127.0.0.1:${E2E_APP_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(E2E_APP_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        APP_URL: `http://127.0.0.1:${E2E_APP_PORT}`,
        SEED_DEMO: 'true',
        ADMIN_EMAIL: 'admin@eventry.test',
        ADMIN_PASSWORD: 'Admin123',
        SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
        CONTACT_TO: 'hosts@eventry.test',
        LOG_LEVEL: 'warn',
        // Paymob through its stand-in, beside the simulated card the other tests pay with.
        SIMULATED_PAYMENTS: 'true',
        PAYMOB_SECRET_KEY: PAYMOB_STAND_IN.secretKey,
        PAYMOB_PUBLIC_KEY: PAYMOB_STAND_IN.publicKey,
        PAYMOB_HMAC_SECRET: PAYMOB_STAND_IN.hmacSecret,
        PAYMOB_API_KEY: PAYMOB_STAND_IN.apiKey,
        PAYMOB_INTEGRATION_CARD: String(PAYMOB_STAND_IN.integrations.card),
        PAYMOB_INTEGRATION_WALLET: String(PAYMOB_STAND_IN.integrations.wallet),
        PAYMOB_INTEGRATION_CASH: String(PAYMOB_STAND_IN.integrations.cash),
        PAYMOB_API_URL: `http://127.0.0.1:${E2E_PAYMOB_PORT}`,
        PAYMOB_CHECKOUT_URL: `http://127.0.0.1:${E2E_PAYMOB_PORT}`,
      },
    },
  ],
});
