import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { accounts, rateLimits, sessions, users, verifications } from '../db/schema';
import type { AppConfig } from '../env';
import { renderEmail } from './email-templates';
import { ForbiddenError, sendProblem, UnauthorizedError } from './errors';
import { enqueueMail } from './mailer';

/**
 * Accounts are better-auth's: email + password, email verification, password reset and sessions,
 * all stored in PostgreSQL through the Drizzle adapter and mounted at /api/auth/*.
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
}

export function createAuth(db: Db, config: AppConfig & { authSecret: string }) {
  const secure = config.appUrl.startsWith('https://');
  return betterAuth({
    appName: 'Eventry',
    baseURL: config.appUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: [config.appUrl],
    telemetry: { enabled: false },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    user: {
      additionalFields: {
        firstName: { type: 'string', required: true, input: true },
        lastName: { type: 'string', required: true, input: true },
        role: { type: 'string', required: false, input: false, defaultValue: 'user' },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      requireEmailVerification: false,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await enqueueMail(db, {
          kind: 'password-reset',
          to: user.email,
          ...renderEmail('password-reset', { name: user.name, url }),
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        await enqueueMail(db, {
          kind: 'verification',
          to: user.email,
          ...renderEmail('verification', { name: user.name, url }),
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
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 5 },
        '/forget-password': { window: 60, max: 5 },
        '/send-verification-email': { window: 60, max: 5 },
      },
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
    /** The signed-in user; throws 401 when signed out. */
    user(): Promise<SessionUser>;
  }
}

const sessionCache = Symbol('session');

export const authPlugin = fp(
  async function auth(app: FastifyInstance, opts: { config: AppConfig & { authSecret: string } }) {
    const auth = createAuth(app.database.db, opts.config);
    app.decorate('auth', auth);

    app.decorateRequest('currentUser', async function currentUser(this: FastifyRequest) {
      const self = this as FastifyRequest & { [sessionCache]?: Promise<SessionUser | null> };
      self[sessionCache] ??= auth.api
        .getSession({ headers: fromNodeHeaders(this.headers) })
        .then((result) => (result ? toSessionUser(result.user as Record<string, unknown>) : null))
        .catch(() => null);
      return self[sessionCache];
    });
    app.decorateRequest('user', async function user(this: FastifyRequest) {
      const current = await this.currentUser();
      if (!current) throw new UnauthorizedError();
      return current;
    });
    app.decorate('requireUser', async (request: FastifyRequest) => {
      await request.user();
    });
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      const current = await request.user();
      if (current.role !== 'admin') throw new ForbiddenError();
    });

    // better-auth speaks Fetch: hand it a Request built from Fastify's and copy its Response back.
    app.route({
      method: ['GET', 'POST'],
      url: '/api/auth/*',
      async handler(request, reply) {
        const url = new URL(request.url, opts.config.appUrl);
        const headers = fromNodeHeaders(request.headers);
        // The client address as Fastify sees it (not a client-supplied header): rate limits are per real IP.
        headers.set('x-forwarded-for', request.ip);
        const body =
          request.method === 'POST' && request.body !== undefined
            ? typeof request.body === 'string'
              ? request.body
              : JSON.stringify(request.body)
            : undefined;
        const response = await auth.handler(new Request(url, { method: request.method, headers, body }));
        reply.status(response.status);
        response.headers.forEach((value, key) => {
          if (key === 'set-cookie') return;
          reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) reply.header('set-cookie', cookies);
        const text = response.body ? await response.text() : null;
        if (response.status >= 400) {
          let detail = 'Something went wrong, try again later';
          let code = 'AUTH_ERROR';
          try {
            const parsed = JSON.parse(text ?? '{}') as { message?: string; code?: string };
            detail = parsed.message ?? detail;
            code = parsed.code ?? code;
          } catch {
            // not JSON: keep the generic message
          }
          if (response.status === 429) {
            return sendProblem(reply, 429, 'RATE_LIMITED', 'Too many attempts, please wait a minute and try again.');
          }
          return sendProblem(reply, response.status, code, detail);
        }
        return reply.send(text);
      },
    });
  },
  { name: 'auth', dependencies: ['database'] },
);

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
  };
}
