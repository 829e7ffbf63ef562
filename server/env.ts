import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The only module that reads process.env. Every setting (README's Configuration table) is validated here once;
 * the rest of the server receives a typed AppConfig.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { message: 'must be true or false' })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** A Paymob integration id: a positive whole number. */
const integrationId = z
  .string()
  .regex(/^\d+$/, { message: 'must be a whole number' })
  .transform(Number)
  .pipe(z.number().int({ message: 'must be a whole number' }).positive({ message: 'must be a positive number' }))
  .optional();

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { message: 'must start with postgres:// or postgresql://' })
        .optional(),
    ),
    APP_URL: optionalString.pipe(z.url({ message: 'must be a URL such as https://tickets.example.com' }).optional()),
    APP_TIMEZONE: z
      .string()
      .default('Africa/Cairo')
      .refine(isTimeZone, { message: 'must be an IANA time zone such as Africa/Cairo' }),
    AUTH_SECRET: optionalString.pipe(z.string().min(32, { message: 'must be at least 32 characters' }).optional()),
    /** Ed25519 private key that signs tickets (PEM, or its 32-byte seed in base64); kept in the database if unset. */
    TICKET_SIGNING_KEY: optionalString,
    ADMIN_EMAIL: optionalString.pipe(z.email({ message: 'must be an email address' }).optional()),
    // The sign-in form's limits (contracts/accounts.ts): a longer password could never sign in.
    ADMIN_PASSWORD: optionalString.pipe(
      z
        .string()
        .min(6, { message: 'must be at least 6 characters' })
        .max(128, { message: 'must be at most 128 characters' })
        .optional(),
    ),
    SEED_DEMO: optionalString.pipe(bool.optional()),
    HOLD_MINUTES: z.coerce.number({ message: 'must be a number' }).int().min(1).max(120).default(10),
    WAITLIST_OFFER_HOURS: z.coerce.number({ message: 'must be a number' }).int().min(1).max(168).default(12),
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, { message: 'must start with smtp:// or smtps://' })
        .optional(),
    ),
    MAIL_FROM: z.string().min(3).default('Eventry <no-reply@eventry.local>'),
    CONTACT_TO: optionalString.pipe(z.email({ message: 'must be an email address' }).optional()),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Where the Stripe API lives; only changed to point at a local stand-in in tests. */
    STRIPE_API_URL: optionalString.pipe(z.url({ message: 'must be a URL' }).optional()),
    PAYMOB_SECRET_KEY: optionalString,
    PAYMOB_PUBLIC_KEY: optionalString,
    PAYMOB_HMAC_SECRET: optionalString,
    /** Paymob's API key: the reconciliation reads transactions with a token made from it. */
    PAYMOB_API_KEY: optionalString,
    PAYMOB_INTEGRATION_CARD: optionalString.pipe(integrationId),
    PAYMOB_INTEGRATION_WALLET: optionalString.pipe(integrationId),
    PAYMOB_INTEGRATION_CASH: optionalString.pipe(integrationId),
    PAYMOB_CASH_HOURS: z.coerce.number({ message: 'must be a number' }).int().min(1).max(168).default(24),
    /** Where Paymob's API and checkout live; only changed to point at a local stand-in in tests. */
    PAYMOB_API_URL: z.url({ message: 'must be a URL' }).default('https://accept.paymob.com'),
    PAYMOB_CHECKOUT_URL: z.url({ message: 'must be a URL' }).default('https://accept.paymob.com'),
    /** The simulated card processor: on by default only when no real provider is configured. */
    SIMULATED_PAYMENTS: optionalString.pipe(bool.optional()),
    S3_ENDPOINT: optionalString.pipe(z.url({ message: 'must be a URL' }).optional()),
    S3_BUCKET: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_REGION: z.string().default('us-east-1'),
    /**
     * Which proxies may tell us the client's address (X-Forwarded-For), for rate limits and logs:
     * false (default), true (any), a number of hops, or a comma-separated list of addresses or CIDR ranges.
     */
    TRUST_PROXY: optionalString.pipe(
      z
        .string()
        .regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, {
          message: 'must be true, false, a number of proxies or a comma-separated list of addresses',
        })
        .optional(),
    ),
    /** Bearer token of GET /metrics (Prometheus); unset: no metrics. */
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, { message: 'must be at least 16 characters' }).optional()),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      });
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_PUBLISHABLE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.STRIPE_SECRET_KEY ? 'STRIPE_PUBLISHABLE_KEY' : 'STRIPE_SECRET_KEY'],
        message: 'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
      });
    }
    const paymob = [env.PAYMOB_SECRET_KEY, env.PAYMOB_PUBLIC_KEY, env.PAYMOB_HMAC_SECRET, env.PAYMOB_API_KEY];
    if (paymob.some(Boolean) && !paymob.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMOB_SECRET_KEY'],
        message: 'PAYMOB_SECRET_KEY, PAYMOB_PUBLIC_KEY, PAYMOB_HMAC_SECRET and PAYMOB_API_KEY must be set together',
      });
    }
    const integrations = [env.PAYMOB_INTEGRATION_CARD, env.PAYMOB_INTEGRATION_WALLET, env.PAYMOB_INTEGRATION_CASH];
    if (paymob.every(Boolean) && !integrations.some((id) => id !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMOB_INTEGRATION_CARD'],
        message:
          'Paymob needs at least one of PAYMOB_INTEGRATION_CARD, PAYMOB_INTEGRATION_WALLET and PAYMOB_INTEGRATION_CASH',
      });
    }
    // With an external database several processes may share it: each must sign sessions and tickets as the
    // others do, which a secret each process made for itself would not (the embedded database has one process).
    if (env.DATABASE_URL) {
      for (const name of ['AUTH_SECRET', 'TICKET_SIGNING_KEY'] as const) {
        if (env[name]) continue;
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `${name} is required with DATABASE_URL (every process must use the same one): set it to the output of \`openssl rand -base64 32\``,
        });
      }
    }
    const s3 = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
    if (s3.some(Boolean) && !s3.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
      });
    }
  });

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  appUrl: string;
  /** Origins whose browsers may sign in and change things: APP_URL's, and loopback ones while it is the default. */
  trustedOrigins: string[];
  timeZone: string;
  authSecret: string | undefined;
  /** TICKET_SIGNING_KEY; without it the tickets plugin uses the key kept in the database (app_secrets). */
  ticketSigningKey: string | undefined;
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  holdMinutes: number;
  /** How long tickets offered to a waitlisted user are held for them (never past the event's start). */
  waitlistOfferHours: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactTo: string | undefined;
  stripe:
    | { secretKey: string; publishableKey: string; webhookSecret: string | undefined; apiUrl: string | undefined }
    | undefined;
  paymob:
    | {
        secretKey: string;
        publicKey: string;
        hmacSecret: string;
        apiKey: string;
        /** Paymob's integration id of each method configured. */
        integrations: { card?: number; wallet?: number; cash?: number };
        cashHours: number;
        apiUrl: string;
        checkoutUrl: string;
      }
    | undefined;
  /** The simulated card processor is offered (SIMULATED_PAYMENTS; by default when no real provider is configured). */
  simulatedPayments: boolean;
  s3:
    | { endpoint: string | undefined; bucket: string; accessKeyId: string; secretAccessKey: string; region: string }
    | undefined;
  trustProxy: boolean | number | string[];
  logLevel: string;
  metricsToken: string | undefined;
}

export class ConfigError extends Error {}

function paymobConfig(env: z.infer<typeof envSchema>): AppConfig['paymob'] {
  if (!env.PAYMOB_SECRET_KEY || !env.PAYMOB_PUBLIC_KEY || !env.PAYMOB_HMAC_SECRET || !env.PAYMOB_API_KEY) {
    return undefined;
  }
  const integrations: NonNullable<AppConfig['paymob']>['integrations'] = {};
  if (env.PAYMOB_INTEGRATION_CARD !== undefined) integrations.card = env.PAYMOB_INTEGRATION_CARD;
  if (env.PAYMOB_INTEGRATION_WALLET !== undefined) integrations.wallet = env.PAYMOB_INTEGRATION_WALLET;
  if (env.PAYMOB_INTEGRATION_CASH !== undefined) integrations.cash = env.PAYMOB_INTEGRATION_CASH;
  return {
    secretKey: env.PAYMOB_SECRET_KEY,
    publicKey: env.PAYMOB_PUBLIC_KEY,
    hmacSecret: env.PAYMOB_HMAC_SECRET,
    apiKey: env.PAYMOB_API_KEY,
    integrations,
    cashHours: env.PAYMOB_CASH_HOURS,
    apiUrl: env.PAYMOB_API_URL.replace(/\/$/, ''),
    checkoutUrl: env.PAYMOB_CHECKOUT_URL.replace(/\/$/, ''),
  };
}

/** Parses an environment (process.env by default) into an AppConfig or throws a one-line ConfigError. */
export function loadConfig(source: Record<string, string | undefined> = readProcessEnv()): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') || 'environment';
    const message = issue?.message ?? 'is invalid';
    throw new ConfigError(message.includes(name) ? message : `${name} ${message}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    // Without APP_URL the app is being tried on this machine: http://127.0.0.1:PORT must work like localhost.
    trustedOrigins: env.APP_URL
      ? [new URL(env.APP_URL).origin]
      : ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${env.PORT}`),
    timeZone: env.APP_TIMEZONE,
    authSecret: env.AUTH_SECRET,
    ticketSigningKey: env.TICKET_SIGNING_KEY,
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined,
    seedDemo: env.SEED_DEMO ?? env.DATABASE_URL === undefined,
    holdMinutes: env.HOLD_MINUTES,
    waitlistOfferHours: env.WAITLIST_OFFER_HOURS,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    contactTo: env.CONTACT_TO,
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            publishableKey: env.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            apiUrl: env.STRIPE_API_URL,
          }
        : undefined,
    paymob: paymobConfig(env),
    simulatedPayments:
      env.SIMULATED_PAYMENTS ?? !((env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY) || env.PAYMOB_SECRET_KEY),
    s3:
      env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: env.S3_ENDPOINT,
            bucket: env.S3_BUCKET,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            region: env.S3_REGION,
          }
        : undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
  };
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim());
}

function readProcessEnv(): Record<string, string | undefined> {
  // A .env file in the working directory is honoured; real environment variables win over it.
  if (existsSync('.env') && typeof process.loadEnvFile === 'function') process.loadEnvFile('.env');
  return process.env;
}

/** Test-only knobs, read here so that no other module touches process.env. */
export function readTestEnv(): {
  testDatabaseUrl: string | undefined;
  chromiumPath: string;
  e2ePortBase: number;
  ci: boolean;
} {
  return {
    testDatabaseUrl: process.env.TEST_DATABASE_URL || undefined,
    chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    e2ePortBase: Number(process.env.E2E_PORT_BASE) || 3100,
    ci: process.env.CI === 'true',
  };
}
