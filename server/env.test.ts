import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env';

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

const PAYMOB_KEYS = {
  PAYMOB_SECRET_KEY: 'egy_sk_test_x',
  PAYMOB_PUBLIC_KEY: 'egy_pk_test_x',
  PAYMOB_HMAC_SECRET: 'hmac',
  PAYMOB_API_KEY: 'api',
};

describe('configuration', () => {
  it('offers Paymob with the methods whose integration is set, and the simulated card only when asked then', () => {
    const paymob = loadConfig({
      ...PAYMOB_KEYS,
      PAYMOB_INTEGRATION_CARD: '4100001',
      PAYMOB_INTEGRATION_CASH: '4100003',
    });
    expect(paymob.paymob).toMatchObject({
      integrations: { card: 4100001, cash: 4100003 },
      cashHours: 24,
      apiUrl: 'https://accept.paymob.com',
      checkoutUrl: 'https://accept.paymob.com',
    });
    expect(paymob.simulatedPayments).toBe(false);
    expect(loadConfig({}).simulatedPayments).toBe(true);
    expect(
      loadConfig({ ...PAYMOB_KEYS, PAYMOB_INTEGRATION_WALLET: '7', SIMULATED_PAYMENTS: 'true' }).simulatedPayments,
    ).toBe(true);
  });

  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, timeZone: 'Africa/Cairo', holdMinutes: 10, trustProxy: false });
    expect(config.appUrl).toBe('http://localhost:3000');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a number'],
    [{ APP_TIMEZONE: 'Mars/Olympus' }, 'APP_TIMEZONE must be an IANA time zone'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must start with postgres://'],
    [{ DATABASE_URL: 'postgres://db/eventry' }, 'AUTH_SECRET is required with DATABASE_URL'],
    [
      { DATABASE_URL: 'postgres://db/eventry', AUTH_SECRET: 'x'.repeat(32) },
      'TICKET_SIGNING_KEY is required with DATABASE_URL',
    ],
    [{ HOLD_MINUTES: '0' }, 'HOLD_MINUTES'],
    [{ ADMIN_EMAIL: 'a@b.co' }, 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
    [{ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: `S${'x'.repeat(128)}` }, 'ADMIN_PASSWORD must be at most 128 characters'],
    [{ TRUST_PROXY: 'sometimes' }, 'TRUST_PROXY must be true, false'],
    [
      { PAYMOB_SECRET_KEY: 'egy_sk_test_x' },
      'PAYMOB_SECRET_KEY, PAYMOB_PUBLIC_KEY, PAYMOB_HMAC_SECRET and PAYMOB_API_KEY',
    ],
    [PAYMOB_KEYS, 'Paymob needs at least one of PAYMOB_INTEGRATION_CARD'],
    [{ ...PAYMOB_KEYS, PAYMOB_INTEGRATION_CARD: 'card' }, 'PAYMOB_INTEGRATION_CARD must be a whole number'],
    [{ ...PAYMOB_KEYS, PAYMOB_INTEGRATION_CASH: '12', PAYMOB_CASH_HOURS: '0' }, 'PAYMOB_CASH_HOURS'],
  ])('stops on %j with one line naming the variable', (env, expected) => {
    const message = errorOf(env);
    expect(message).toContain(expected);
    expect(message).not.toContain('\n');
  });

  it('trusts the loopback origins while APP_URL is the default, and only APP_URL once it is set', () => {
    expect(loadConfig({ PORT: '4000' }).trustedOrigins).toEqual([
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'http://[::1]:4000',
    ]);
    expect(loadConfig({ APP_URL: 'https://tickets.example.com/' }).trustedOrigins).toEqual([
      'https://tickets.example.com',
    ]);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.1, 192.168.0.0/16', ['10.0.0.1', '192.168.0.0/16']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });
});
