import multipart from '@fastify/multipart';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import {
  languageBodySchema,
  meSchema,
  requestPasswordResetBodySchema,
  resetPasswordBodySchema,
  sendVerificationBodySchema,
  signInBodySchema,
  signUpBodySchema,
  updateProfileBodySchema,
  uploadedAvatarSchema,
} from '../../../contracts/accounts';
import { MAX_UPLOAD_BYTES } from '../../../contracts/constants';
import { msg } from '../../../contracts/i18n/text';
import { problemSchema } from '../../../contracts/problem';
import { AppError, sendProblem, UnauthorizedError, ValidationError } from '../../plugins/errors';
import { languageCookie, requestLang } from '../../plugins/i18n';
import { registerSharedRateLimit } from '../../plugins/shared-rate-limit';
import { readSingleUpload, UploadRefused } from '../../plugins/single-upload';
import { createAccountsService, RateLimitedError } from './service';

const AUTH_PREFIX = '/api/auth';
/** Where the emailed links lead in the web app. */
const VERIFIED_CALLBACK = '/?verified=1';
const RESET_PASSWORD_PAGE = '/reset-password';
/** The characters of a password-reset token as emailed (better-auth makes them alphanumeric). */
const RESET_TOKEN = /^[\x21-\x7e]+$/;

/** better-auth's session cookie ('eventry.session_token', '__Secure-' prefixed over HTTPS). */
const SESSION_COOKIE = 'eventry.session_token=';

/** The better-auth endpoints the product uses; every other one answers 404. */
const GET_ENDPOINTS = [/^\/get-session$/, /^\/verify-email$/, /^\/reset-password\/[^/]+$/];
const POST_ENDPOINTS = new Set([
  '/sign-up/email',
  '/sign-in/email',
  '/sign-out',
  '/send-verification-email',
  '/request-password-reset',
  '/reset-password',
]);

/**
 * Field errors from a zod failure: the first message of each field, as the forms show one message a field
 * (sign-up-sign-in.test.ts: 'reports every missing field at once').
 */
function fieldErrors(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): Record<string, string> {
  const result: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'body';
    if (!(key in result)) result[key] = issue.message;
  }
  return result;
}

function parseBody<S extends ZodType>(schema: S, body: unknown): ReturnType<S['parse']> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  return parsed.data as ReturnType<S['parse']>;
}

/** Profile pictures one account may upload per minute (a person trying pictures uses a handful). */
export const AVATAR_UPLOAD_RATE_LIMIT = { max: 20, timeWindow: 60_000 } as const;

/** HTTP routes of the accounts feature: better-auth's endpoints behind our rules, and the profile. */
export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = createAccountsService({
    db: app.database.db,
    uploads: app.uploads,
    hashPassword: async (password) => (await app.auth.$context).password.hash(password),
  });
  const baseURL = String(app.auth.options.baseURL);

  /** Hands a request to better-auth (which speaks Fetch) with the body we validated. */
  async function forward(request: FastifyRequest, body?: Record<string, unknown>): Promise<Response> {
    const url = new URL(request.url, baseURL);
    // An emailed reset link whose callbackURL was lost on the way (some mail clients cut query strings) still
    // opens our reset page: better-auth would answer 400 with its own wording.
    if (request.method === 'GET' && url.pathname.startsWith(`${AUTH_PREFIX}/reset-password/`)) {
      if (!url.searchParams.get('callbackURL')) url.searchParams.set('callbackURL', RESET_PASSWORD_PAGE);
    }
    const headers = fromNodeHeaders(request.headers);
    // The client address as Fastify sees it (not a client-supplied header): better-auth's limits are per real IP.
    headers.set('x-forwarded-for', request.ip);
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    let payload: string | undefined;
    if (request.method === 'POST') {
      payload = JSON.stringify(body ?? {});
      headers.set('content-type', 'application/json');
    }
    return app.auth.handler(new Request(url, { method: request.method, headers, body: payload }));
  }

  /** Copies better-auth's answer back, turning its errors into our problems with the spec's messages. */
  async function relay(reply: FastifyReply, response: Response, endpoint: string): Promise<FastifyReply> {
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const text = response.body ? await response.text() : '';
    if (response.status < 400) {
      response.headers.forEach((value, key) => {
        if (key === 'set-cookie' || key === 'content-length' || key === 'content-encoding') return;
        reply.header(key, value);
      });
      return reply.status(response.status).send(text);
    }
    let detail: string = msg('common.somethingWentWrong');
    let code = 'AUTH_ERROR';
    try {
      const parsed = JSON.parse(text || '{}') as { message?: string; code?: string };
      detail = parsed.message ?? detail;
      code = parsed.code ?? code;
    } catch {
      // not JSON: keep the generic message
    }
    if (response.status === 429) {
      const seconds = Number(response.headers.get('x-retry-after')) || 60;
      return sendRateLimited(reply, seconds);
    }
    if (endpoint === '/sign-in/email' && response.status === 401) {
      return sendProblem(reply, 401, 'INVALID_CREDENTIALS', msg('login.wrongCredentials'));
    }
    if (endpoint === '/sign-up/email' && code.startsWith('USER_ALREADY_EXISTS')) {
      return sendEmailTaken(reply);
    }
    if (endpoint === '/reset-password' && (code === 'INVALID_TOKEN' || code === 'USER_NOT_FOUND')) {
      return sendProblem(reply, 400, 'INVALID_TOKEN', msg('accounts.invalidResetLink'));
    }
    if (response.status >= 500) {
      reply.log.error({ status: response.status, code }, 'better-auth failed');
      return sendProblem(reply, 500, 'INTERNAL', msg('common.somethingWentWrong'));
    }
    return sendProblem(reply, response.status, code, detail);
  }

  function sendEmailTaken(reply: FastifyReply): FastifyReply {
    const taken = msg('signup.emailTaken');
    return sendProblem(reply, 409, 'EMAIL_TAKEN', taken, { email: taken });
  }

  function sendRateLimited(reply: FastifyReply, seconds: number): FastifyReply {
    reply.header('retry-after', String(seconds));
    return sendProblem(reply, 429, 'RATE_LIMITED', msg('accounts.rateLimited'), undefined, { retryAfter: seconds });
  }

  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_PREFIX}/*`,
    schema: { hide: true },
    async handler(request, reply) {
      const endpoint = new URL(request.url, baseURL).pathname.slice(AUTH_PREFIX.length);
      const known =
        request.method === 'GET'
          ? GET_ENDPOINTS.some((pattern) => pattern.test(endpoint))
          : POST_ENDPOINTS.has(endpoint);
      if (!known) {
        const path = `${AUTH_PREFIX}${endpoint}`;
        return sendProblem(reply, 404, 'NOT_FOUND', msg('accounts.noSuchAuthRoute', { method: request.method, path }));
      }
      try {
        if (request.method === 'GET') return await relay(reply, await forward(request), endpoint);
        switch (endpoint) {
          case '/sign-up/email': {
            const body = parseBody(signUpBodySchema, request.body);
            await accounts.consumeEmailLimit('signUp', body.email);
            const { firstName, lastName, email, password, rememberMe } = body;
            const name = `${firstName} ${lastName}`;
            const response = await forward(request, {
              firstName,
              lastName,
              email,
              password,
              rememberMe,
              name,
              callbackURL: VERIFIED_CALLBACK,
              // The new account's emails are written in the language it signed up in.
              language: requestLang(request),
            });
            // Two sign-ups of one email at once (a double click): both pass better-auth's lookup and the
            // database's unique email refuses the second, which better-auth reports as FAILED_TO_CREATE_USER.
            if (response.status === 422 && (await accounts.emailRegistered(email))) {
              return sendEmailTaken(reply);
            }
            return await relay(reply, response, endpoint);
          }
          case '/sign-in/email': {
            const { email, password, rememberMe } = parseBody(signInBodySchema, request.body);
            await accounts.assertSignInAllowed(email, request.ip);
            const response = await forward(request, { email, password, rememberMe });
            if (response.status === 401) await accounts.recordSignInFailure(email, request.ip);
            if (response.ok) {
              // The site follows the user's language from their next page on, in this browser too.
              const language = await accounts.languageOfEmail(email);
              if (language) reply.header('set-cookie', languageCookie(language));
            }
            return await relay(reply, response, endpoint);
          }
          case '/request-password-reset': {
            // Identical answers for known and unknown addresses: nothing here reveals who has an account.
            const { email } = parseBody(requestPasswordResetBodySchema, request.body);
            await accounts.consumeEmailLimit('passwordReset', email);
            return await relay(reply, await forward(request, { email, redirectTo: RESET_PASSWORD_PAGE }), endpoint);
          }
          case '/reset-password': {
            const { newPassword, token } = parseBody(resetPasswordBodySchema, request.body);
            // Emailed tokens are visible ASCII. Anything else (a NUL byte, say) is answered like any other wrong
            // token here: better-auth would look it up, PostgreSQL would refuse the value, and better-auth answers 500.
            if (!RESET_TOKEN.test(token))
              return sendProblem(reply, 400, 'INVALID_TOKEN', msg('accounts.invalidResetLink'));
            return await relay(reply, await forward(request, { newPassword, token }), endpoint);
          }
          case '/send-verification-email': {
            const user = await request.user();
            const { email } = parseBody(sendVerificationBodySchema, request.body);
            if (email !== user.email.toLowerCase()) {
              throw new ValidationError({ email: msg('accounts.notYourEmail') });
            }
            return await relay(
              reply,
              await forward(request, { email: user.email, callbackURL: VERIFIED_CALLBACK }),
              endpoint,
            );
          }
          default:
            // /sign-out takes no input.
            return await relay(reply, await forward(request), endpoint);
        }
      } catch (error) {
        if (error instanceof RateLimitedError) return sendRateLimited(reply, error.retryAfterSeconds);
        throw error;
      }
    },
  });

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['accounts'],
        summary:
          "The signed-in user's profile; null for a visitor without a session cookie, 401 when the session sent has ended",
        response: { 200: meSchema.nullable(), 401: problemSchema },
      },
    },
    async (request) => {
      // Every page asks: a visitor who is simply not signed in is an answer (null), not an error in the console.
      if (!request.headers.cookie?.includes(SESSION_COOKIE)) return null;
      const user = await request.user();
      return {
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        imageUrl: user.image,
        role: user.role,
        emailVerified: user.emailVerified,
        doorStaff: await app.doorStaff.keepsAnyDoor(user.id),
        language: user.language,
      };
    },
  );

  // The language switch (GET /api/language/:lang, plugins/i18n.ts) also saves a signed-in user's choice: their
  // emails follow it, and so does the site at their next sign-in elsewhere.
  app.onLanguageChosen(async (request, language) => {
    const user = await request.currentUser();
    if (user && user.language !== language) await accounts.setLanguage(user.id, language);
  });

  app.put(
    '/api/me/language',
    {
      // Signed-out callers get their 401 before the body is looked at.
      onRequest: app.requireUser,
      schema: {
        tags: ['accounts'],
        summary:
          "Save the signed-in user's language: their emails are written in it, and each sign-in sets the site's (it also sets this browser's now)",
        body: languageBodySchema,
        response: { 204: z.null().describe('Saved'), 400: problemSchema, 401: problemSchema },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      await accounts.setLanguage(user.id, request.body.language);
      return reply.code(204).header('set-cookie', languageCookie(request.body.language)).send(null);
    },
  );

  app.patch(
    '/api/me',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Edit the profile: names, the picture, and optionally a new password (which ends the other sessions)',
        body: updateProfileBodySchema,
        response: { 200: meSchema, 400: problemSchema, 401: problemSchema },
      },
    },
    async (request) => {
      const session = await request.currentSession();
      if (!session) throw new UnauthorizedError();
      const me = await accounts.updateProfile({ userId: session.user.id, sessionId: session.sessionId }, request.body);
      return { ...me, doorStaff: await app.doorStaff.keepsAnyDoor(me.id) };
    },
  );

  await app.register(async (uploads) => {
    // Each upload is decoded and re-encoded, which costs the machine a fraction of a second: one account may
    // not keep it busy. Counted per account (per address for a visitor, who then gets the 401), across every
    // process, before the body is read.
    await registerSharedRateLimit(uploads, {
      name: 'avatar',
      keyGenerator: async (request) => {
        const user = await request.currentUser();
        return user ? `user:${user.id}` : `ip:${request.ip}`;
      },
      message: (seconds) => msg('accounts.tooManyPictures', { count: seconds }),
    });
    await uploads.register(multipart, {
      preservePath: true,
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 2, fieldNameSize: 100, headerPairs: 100 },
    });
    uploads.post(
      '/api/me/avatar',
      {
        config: { rateLimit: AVATAR_UPLOAD_RATE_LIMIT },
        schema: {
          tags: ['accounts'],
          summary:
            'Upload a new profile picture (multipart, one JPEG, PNG or WebP image of at most 5 MB); PATCH /api/me with its imageUrl makes it the picture',
          consumes: ['multipart/form-data'],
          response: { 200: uploadedAvatarSchema, 400: problemSchema, 401: problemSchema, 429: problemSchema },
        },
      },
      async (request) => {
        const user = await request.user();
        let data: Buffer;
        try {
          data = await readSingleUpload(request);
        } catch (error) {
          if (!(error instanceof UploadRefused)) throw error;
          if (error.reason === 'too-large') throw new AppError(400, 'FILE_TOO_LARGE', msg('accounts.pictureTooLarge'));
          // Not an image problem: the request did not carry the one file where the API expects it.
          if (error.reason === 'missing' || error.reason === 'not-multipart') {
            throw new AppError(400, 'UPLOAD_MISSING', msg('accounts.pictureMissing'));
          }
          throw new AppError(400, 'INVALID_IMAGE', msg('accounts.pictureInvalid'));
        }
        return { imageUrl: await accounts.uploadAvatar(user.id, data) };
      },
    );
  });
};
