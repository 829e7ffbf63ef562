import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { AppConfig } from '../env';
import { ENTRY_LOADER_CSP_SOURCE } from '../web-app/entry-loader';
import { API_CONTENT_SECURITY_POLICY, sendProblem } from './errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Called by other servers, not browsers: authenticated by signature instead of Origin. */
const CROSS_ORIGIN_ALLOWED = new Set(['/api/payments/stripe/webhook', '/api/payments/paymob/callback']);

/**
 * Security headers on every response (CSP with one inline script, known by its hash, nosniff, frame-ancestors, referrer
 * policy) and a same-origin check on every state-changing API request that a browser sends.
 */
export const securityPlugin = fp(
  async function security(app: FastifyInstance, opts: { config: AppConfig }) {
    const { config } = opts;
    const stripe = config.stripe !== undefined;
    const https = config.appUrl.startsWith('https://');
    // helmet computes the same headers for every response: compute them once and copy them onto each reply
    // (@fastify/helmet rebuilt helmet's middleware, CSP parsing included, on every request).
    const securityHeaders = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // 'wasm-unsafe-eval' lets the door's scanner compile the QR decoder's WebAssembly (served by us, never a
          // CDN): it allows compiling WebAssembly only, not eval() of JavaScript.
          // The one inline script, by its hash: the loader of the app's entry (web-app/entry-loader.ts).
          scriptSrc: [
            "'self'",
            "'wasm-unsafe-eval'",
            ENTRY_LOADER_CSP_SOURCE,
            ...(stripe ? ['https://js.stripe.com'] : []),
          ],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
          frameSrc: stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : ["'none'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
    });
    // An API answer is data, never a document: it gets the headers that still mean something for it
    // (OWASP's REST cheat sheet), and not the ~560 bytes of document policies on every JSON reply. The API's
    // documentation pages (/api/docs) are documents and keep the full set.
    const apiHeaders: Record<string, string> = {
      'content-security-policy': API_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': securityHeaders['referrer-policy'] ?? 'strict-origin-when-cross-origin',
      ...(https ? { 'strict-transport-security': securityHeaders['strict-transport-security'] ?? '' } : {}),
    };
    app.frontDoor.setSecurityHeaders(apiHeaders);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiData(request.url) ? apiHeaders : securityHeaders);
      // The router decodes a path before matching it ('/%61pi/me' reaches /api/me) while checks made on the raw
      // text would not see '/api/': a path with a needlessly encoded letter, digit or - . _ ~ (RFC 3986's
      // unreserved characters, which no browser or client encodes) is refused before anything reads it.
      const path = pathOf(request.url);
      if (path.includes('%') && ENCODED_UNRESERVED.test(path)) {
        sendProblem(reply, 400, 'BAD_URL', 'problems.badAddress');
        return;
      }
      done();
    });

    const allowedOrigins = new Set(config.trustedOrigins);
    // Synchronous, and an origin is parsed once: every booking and payment of an on-sale passes here.
    app.addHook('onRequest', (request, reply, done) => {
      if (!STATE_CHANGING.has(request.method)) return done();
      // The route that will answer, as registered, and the address as sent: either under /api/ is checked.
      const route = request.routeOptions.url;
      if (!route?.startsWith('/api/') && !request.url.startsWith('/api/')) return done();
      if (route !== undefined && CROSS_ORIGIN_ALLOWED.has(route)) return done();
      const origin = request.headers.origin;
      const fetchSite = request.headers['sec-fetch-site'];
      const host = request.headers.host;
      const allowed =
        origin === undefined || allowedOrigins.has(origin) || (host !== undefined && hostOf(origin) === host);
      if (!allowed || fetchSite === 'cross-site') {
        // sendProblem sends the reply; done() is not called after a hook has answered.
        sendProblem(reply, 403, 'CROSS_ORIGIN', 'Cross-site requests are not allowed.');
        return;
      }
      done();
    });
  },
  { name: 'security', dependencies: [] },
);

const API_DOCS = /^\/api\/docs(?:[/?]|$)/;
/** A percent-encoded letter, digit, '-', '.', '_' or '~'. */
const ENCODED_UNRESERVED = /%(?:3[0-9]|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a]|2[de]|5f|7e)/i;

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** An /api/ address other than the documentation pages (/api/docs). */
export function isApiData(url: string): boolean {
  return url.startsWith('/api/') && !API_DOCS.test(url);
}

/** The headers helmet sets with these options (they do not depend on the request). */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, collector as never, () => {});
  return headers;
}

/** Origins already parsed (the set starts over when full: a client can send any text as its Origin). */
const hostsOfOrigins = new Map<string, string | undefined>();
const MAX_REMEMBERED_ORIGINS = 1_000;

function hostOf(origin: string): string | undefined {
  if (hostsOfOrigins.has(origin)) return hostsOfOrigins.get(origin);
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (hostsOfOrigins.size >= MAX_REMEMBERED_ORIGINS) hostsOfOrigins.clear();
  hostsOfOrigins.set(origin, host);
  return host;
}
