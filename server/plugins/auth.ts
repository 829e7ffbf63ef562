import { createHmac, timingSafeEqual } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../contracts/accounts';
import { isLang, type Lang } from '../../contracts/i18n/languages';
import type { Db } from '../db/client';
import { accounts, rateLimits, sessions, users, verifications } from '../db/schema';
import type { AppConfig } from '../env';
import { renderEmail } from './email-templates';
import { ForbiddenError, UnauthorizedError } from './errors';
import { accountLang, fetchRequestLang, mailLang } from './mail-language';
import { enqueueMail } from './mailer';
import { SessionCache } from './session-cache';

/**
 * Accounts are better-auth's: email + password, email verification, password reset and sessions,
 * all stored in PostgreSQL through the Drizzle adapter. The HTTP side (/api/auth/*, with our own validation,
 * per-email limits and error messages in front of better-auth) is the accounts feature's.
 */

export type Role = 'user' | 'admin';
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  firstName: string;
  lastName: string;
  image: string | null;
  role: Role;
  emailVerified: boolean;
  /** The language the user chose (their emails', and the site's once they sign in); null before any choice. */
  language: Lang | null;
}

/** Per-IP limits (better-auth, stored in PostgreSQL so every app process shares them). Windows in seconds. */
export const AUTH_IP_LIMITS = {
  '/sign-in/email': { window: 60, max: 20 },
  '/sign-up/email': { window: 60, max: 10 },
  '/request-password-reset': { window: 15 * 60, max: 10 },
  '/reset-password': { window: 60, max: 10 },
  '/send-verification-email': { window: 15 * 60, max: 5 },
} as const;

export function createAuth(db: Db, config: AppConfig & { authSecret: string }, log?: FastifyBaseLogger) {
  const secure = config.appUrl.startsWith('https://');
  return betterAuth({
    appName: 'Eventry',
    baseURL: config.appUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    telemetry: { enabled: false },
    // Expected events (unknown email on reset, …) are not worth a log line; real failures are, in the app's log.
    logger: { level: 'error', disabled: config.nodeEnv === 'test' || !log, log: log && betterAuthLog(log) },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    user: {
      additionalFields: {
        firstName: { type: 'string', required: true, input: true },
        lastName: { type: 'string', required: true, input: true },
        role: { type: 'string', required: false, input: false, defaultValue: 'user' },
        // Given by the accounts routes at sign-up (the request's language), never by the client: its body is
        // checked against a strict schema before it reaches better-auth.
        language: { type: 'string', required: false, input: true },
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Every new account is a 'user' (admins are promoted afterwards) and its name is always first + last.
          async before(user) {
            const record = user as typeof user & { firstName?: string; lastName?: string; language?: unknown };
            const firstName = String(record.firstName ?? '').trim();
            const lastName = String(record.lastName ?? '').trim();
            const language = isLang(record.language) ? record.language : null;
            return {
              data: { ...user, firstName, lastName, name: `${firstName} ${lastName}`.trim(), role: 'user', language },
            };
          },
        },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      requireEmailVerification: false,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }, request) => {
        const lang = mailLang(await accountLang(db, { id: user.id }), fetchRequestLang(request));
        await enqueueMail(db, {
          kind: 'password-reset',
          to: user.email,
          ...renderEmail('password-reset', { name: user.name, url }, lang),
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // The emailed link verifies the address; it does not sign anyone in (a forwarded mail is not a key).
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60 * 24,
      // In the account's language, else the language of the page that asked (sign-up, resend).
      sendVerificationEmail: async ({ user, url }, request) => {
        const lang = mailLang(await accountLang(db, { id: user.id }), fetchRequestLang(request));
        await enqueueMail(db, {
          kind: 'verification',
          to: user.email,
          ...renderEmail('verification', { name: user.name, url }, lang),
        });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 300,
      customRules: { ...AUTH_IP_LIMITS },
    },
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: 'eventry',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** PostgreSQL's unique_violation, wherever the error carries it (drizzle wraps the driver's error in `cause`). */
function isUniqueViolation(value: unknown): boolean {
  for (let error = value, depth = 0; error && typeof error === 'object' && depth < 5; depth++) {
    if ((error as { code?: unknown }).code === '23505') return true;
    error = (error as { cause?: unknown }).cause;
  }
  return false;
}

/** better-auth's error line for a URL a request names that is not one of the trusted origins ('Invalid callbackURL: …'). */
const REFUSED_INPUT = /^Invalid [A-Za-z]+: /;
/** How much of a refused input is repeated in the log. */
const MAX_ECHOED_INPUT = 300;

/**
 * better-auth's log lines, written to the app's structured log instead of its own console lines. Those
 * carried the failed query's parameters (a new user's name and email) and broke the log's one-JSON-object
 * a line. The error is logged by its message and code only. A unique violation is two requests creating
 * the same row at once (a double-clicked sign-up): the later one is answered 409 EMAIL_TAKEN, which is
 * not a failure of the app. Nor is a callback URL of another site ('Invalid callbackURL: …'): a warning.
 */
export function betterAuthLog(log: FastifyBaseLogger) {
  return (level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]) => {
    const error = args.find((arg): arg is Error => arg instanceof Error);
    const cause = error?.cause instanceof Error ? error.cause : undefined;
    const details = error
      ? { error: { name: error.name, message: (cause ?? error).message.split('\n')[0], code: codeOf(cause ?? error) } }
      : {};
    if (level === 'error' && isUniqueViolation(error)) {
      log.info(details, `better-auth: ${message} (a concurrent request created it first)`);
      return;
    }
    if (level === 'error' && !error && REFUSED_INPUT.test(message)) {
      // A request refused for what its sender put in it (answered 403): anyone can send one, so it is no alert.
      log.warn(`better-auth: ${message.slice(0, MAX_ECHOED_INPUT)}`);
      return;
    }
    log[level](details, `better-auth: ${message}`);
  };
}

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export interface CurrentSession {
  user: SessionUser;
  /** The id of the session row (not its secret token). */
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
    /** preHandler: 401 unless signed in. */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: 401 unless signed in, 403 unless an admin. */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user, resolved once per request (null when signed out). */
    currentUser(): Promise<SessionUser | null>;
    /** The signed-in user and session, resolved once per request (null when signed out). */
    currentSession(): Promise<CurrentSession | null>;
    /** The signed-in user; throws 401 when signed out. */
    user(): Promise<SessionUser>;
  }
}

const sessionCache = Symbol('session');
/** Auth routes that create a session (and, for a sign-up, its user) without changing any other. */
const ADDS_A_SESSION_ONLY = new Set(['/api/auth/sign-in/email', '/api/auth/sign-up/email']);

export const authPlugin = fp(
  async function auth(
    app: FastifyInstance,
    opts: { config: AppConfig & { authSecret: string }; sessionCacheTtlMs?: number },
  ) {
    const auth = createAuth(app.database.db, opts.config, app.log);
    app.decorate('auth', auth);

    const cache = opts.sessionCacheTtlMs ? new SessionCache<CurrentSession>(opts.sessionCacheTtlMs) : undefined;
    if (cache) {
      // Other processes' sign-outs, revocations, role and profile changes, relayed by the notifications plugin.
      app.notifications.onAccountChange((userId) => (userId ? cache.evictUser(userId) : cache.clear()));
      // This process's own: before the answer leaves, so the client's next request cannot see the old state.
      // A sign-in or a sign-up only adds a session (and a user) that nothing has cached: they keep everyone
      // else's entries, which an on-sale's steady stream of sign-ins would otherwise empty over and over.
      // Synchronous (no promise per answer): it runs for every request the server answers.
      app.addHook('onSend', (request, _reply, payload, done) => {
        const url = request.url;
        const changesSessions = url.startsWith('/api/auth/') && !ADDS_A_SESSION_ONLY.has(url.split('?')[0] ?? '');
        if (changesSessions || (url.startsWith('/api/me') && request.method !== 'GET')) cache.clear();
        done(null, payload);
      });
    }
    // Only while every revocation reaches this process.
    const usableCache = () => (cache && app.notifications.listening ? cache : undefined);
    const readSession = createSessionReader(app, auth, opts.config, usableCache);
    app.decorateRequest('currentSession', function currentSession(this: FastifyRequest) {
      const self = this as FastifyRequest & { [sessionCache]?: Promise<CurrentSession | null> };
      self[sessionCache] ??= readSession(this);
      return self[sessionCache];
    });
    app.decorateRequest('currentUser', async function currentUser(this: FastifyRequest) {
      return (await this.currentSession())?.user ?? null;
    });
    app.decorateRequest('user', async function user(this: FastifyRequest) {
      const current = await this.currentUser();
      if (!current) throw new UnauthorizedError();
      return current;
    });
    const requireUser = async (request: FastifyRequest) => {
      await request.user();
    };
    const requireAdmin = async (request: FastifyRequest) => {
      const current = await request.user();
      if (current.role !== 'admin') throw new ForbiddenError();
    };
    app.decorate('requireUser', requireUser);
    app.decorate('requireAdmin', requireAdmin);

    // Every /api/admin route is for admins only (accounts/roles.test.ts and test/hard/access-matrix.test.ts check
    // each one). Enforced here for every route as it is registered (before body parsing and validation), so a new
    // admin route cannot forget it.
    app.addHook('onRoute', (route) => {
      if (route.url !== '/api/admin' && !route.url.startsWith('/api/admin/')) return;
      const existing = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [requireAdmin, ...existing] as typeof route.onRequest;
    });
  },
  { name: 'auth', dependencies: ['database', 'notifications'] },
);

/** How many verified session cookies are remembered (the set starts over when full). */
const MAX_VERIFIED_COOKIES = 10_000;
/** Sessions are refreshed (expiry extended) by better-auth once they are older than this. */
const SESSION_UPDATE_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Resolves the session of a request in one indexed query. better-auth's getSession costs several
 * queries and allocations per call, and every booking and payment request needs the session; here we
 * verify the signed cookie ourselves (HMAC-SHA256 with the auth secret, as better-auth signs it) and read
 * the session joined with its user. Sessions due for a refresh take better-auth's own path, which extends
 * them. Revocation stays immediate: a deleted or expired session row is never found, and the short-lived
 * cache in front of the query (session-cache.ts) is evicted by every change of a session or account.
 */
function createSessionReader(
  app: FastifyInstance,
  auth: Auth,
  config: AppConfig & { authSecret: string },
  usableCache: () => SessionCache<CurrentSession> | undefined,
) {
  const secure = config.appUrl.startsWith('https://');
  const cookieName = `${secure ? '__Secure-' : ''}eventry.session_token`;
  const sign = (value: string) => createHmac('sha256', config.authSecret).update(value).digest();
  /** Signed cookie values already verified, and their token: a signed-in visitor's next request skips the HMAC. */
  const verified = new Map<string, string>();

  function tokenFrom(cookieHeader: string | undefined): string | null {
    if (!cookieHeader) return null;
    for (const part of cookieHeader.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== cookieName) continue;
      let value: string;
      try {
        value = decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
      const known = verified.get(value);
      if (known !== undefined) return known;
      const dot = value.lastIndexOf('.');
      if (dot < 1) return null;
      const token = value.slice(0, dot);
      // Compare the text, not decoded bytes: a base64 decoder ignores padding bits and stray characters,
      // so several spellings would decode to the right signature.
      const signature = Buffer.from(value.slice(dot + 1));
      const expected = Buffer.from(sign(token).toString('base64'));
      if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
      if (verified.size >= MAX_VERIFIED_COOKIES) verified.clear();
      verified.set(value, token);
      return token;
    }
    return null;
  }

  return async function readSession(request: FastifyRequest): Promise<CurrentSession | null> {
    const token = tokenFrom(request.headers.cookie);
    if (!token) return null;
    const cache = usableCache();
    const cached = cache?.get(token);
    if (cached !== undefined) return cached;
    const generation = cache?.generation ?? 0;
    const { rows } = await app.database.pool.query<Record<string, unknown>>(
      `SELECT s.id AS "sessionId", s.updated_at AS "sessionUpdatedAt", s.expires_at AS "sessionExpiresAt",
              u.id, u.email, u.name,
              u.first_name AS "firstName", u.last_name AS "lastName", u.image, u.role, u.email_verified AS "emailVerified",
              u.language
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token = $1 AND s.expires_at > $2`,
      // The app's clock, as better-auth uses it, so both paths agree on when a session ends.
      [token, new Date()],
    );
    const row = rows[0];
    if (!row) {
      cache?.set(token, null, Date.now() + SESSION_UPDATE_AGE_MS, generation);
      return null;
    }
    const updatedAt = row.sessionUpdatedAt instanceof Date ? row.sessionUpdatedAt.getTime() : 0;
    if (Date.now() - updatedAt > SESSION_UPDATE_AGE_MS) {
      // Due for a refresh: let better-auth extend it.
      const result = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
      return result
        ? { user: toSessionUser(result.user as Record<string, unknown>), sessionId: String(result.session.id) }
        : null;
    }
    const session = { user: toSessionUser(row), sessionId: String(row.sessionId) };
    const expiresAt = row.sessionExpiresAt instanceof Date ? row.sessionExpiresAt.getTime() : 0;
    cache?.set(token, session, expiresAt, generation);
    return session;
  };
}

export function toSessionUser(row: Record<string, unknown>): SessionUser {
  return {
    id: String(row.id),
    email: String(row.email),
    name: String(row.name ?? ''),
    firstName: String(row.firstName ?? ''),
    lastName: String(row.lastName ?? ''),
    image: (row.image as string | null | undefined) || null,
    role: row.role === 'admin' ? 'admin' : 'user',
    emailVerified: row.emailVerified === true,
    language: isLang(row.language) ? row.language : null,
  };
}
