import { existsSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { msg } from '../contracts/i18n/text';
import type { Database } from './db/client';
import type { AppConfig } from './env';
import { accountsRoutes } from './features/accounts/routes';
import { adminRoutes } from './features/admin/routes';
import { attendeesRoutes } from './features/attendees/routes';
import { catalogueRoutes } from './features/catalogue/routes';
import { contactRoutes } from './features/contact/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { healthRoutes } from './features/health/routes';
import { createPaymentProviders } from './features/payments/provider';
import { paymentsRoutes } from './features/payments/routes';
import { ticketingPlugin } from './features/ticketing/routes';
import { ticketsPlugin } from './features/tickets/routes';
import { webDistDir } from './paths';
import { AllowedMethods } from './plugins/allowed-methods';
import { authPlugin } from './plugins/auth';
import { databasePlugin } from './plugins/database';
import { clientErrorHandler, errorsPlugin, frameworkErrors, sendProblem } from './plugins/errors';
import { FrontDoor } from './plugins/front-door';
import { i18nPlugin, i18nRoutesPlugin, requestLang } from './plugins/i18n';
import { mailWorkerPlugin } from './plugins/mailer';
import { metricsPlugin } from './plugins/metrics';
import { type LiveLimits, notificationsPlugin } from './plugins/notifications';
import { schedulerPlugin } from './plugins/scheduler';
import { securityPlugin } from './plugins/security';
import { storagePlugin } from './plugins/storage';
import { uploadsPlugin } from './plugins/uploads';
import { encodeHtml } from './web-app/html-encoding';
import { matchPage } from './web-app/page-match';
import { sessionRedirect } from './web-app/session-redirect';
import { createWebHtml } from './web-app/web-html';

export interface RouteTableEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app (filled by an onRoute hook). */
    routeTable: readonly RouteTableEntry[];
    /** Answers finished in memory, written before Fastify sees the request (server/plugins/front-door.ts). */
    frontDoor: FrontDoor;
  }
}

/** Log levels at which every request gets its line. */
const REQUEST_LOG_LEVELS = new Set(['trace', 'debug', 'info']);

/** Fastify's router, and the copy of it that tells which methods an address answers (405). */
const ROUTER_OPTIONS = { maxParamLength: 200 };

/** How long a resolved session is reused while the LISTEN connection relays every revocation. */
const SESSION_CACHE_TTL_MS = 10_000;

export interface BuildOptions {
  config: AppConfig & { authSecret: string };
  database: Database;
  /** Run scheduled jobs (archiving, hold expiry, mail delivery, unused uploads). Off in most tests. */
  runJobs?: boolean;
  /** false silences logs (tests); a stream receives the JSON lines (tests that read them); default stdout. */
  logger?: boolean | Writable;
  /** Serve the built web app from this folder (default dist/web when it exists). */
  webDir?: string | null;
  /**
   * How long a resolved session may be reused (server/plugins/session-cache.ts); 0 turns the cache off.
   * Default 10 s, off under NODE_ENV=test (its suites write sessions and roles straight to the database).
   */
  sessionCacheTtlMs?: number;
  /** How many live-update streams the process holds (server/plugins/notifications.ts); default from its file limit. */
  liveLimits?: LiveLimits;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const logsEveryRequest = options.logger !== false && REQUEST_LOG_LEVELS.has(config.logLevel);
  const frontDoor = new FrontDoor({ enabled: !logsEveryRequest });
  const app = Fastify({
    serverFactory: frontDoor.serverFactory(),
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logger instanceof Writable ? { stream: options.logger } : {}),
          },
    // One log line per request, written in onResponse below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // A union-typed value here would make TypeScript pick Fastify's HTTP/2 overload.
    trustProxy: config.trustProxy as boolean,
    return503OnClosing: true,
    routerOptions: ROUTER_OPTIONS,
    // Malformed URLs and over-long parameters are answered as problems too (the router answers them before hooks).
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Every route as registered: tests (server/test/hard) enumerate them, so no route escapes the access matrix;
  // and the methods each /api address answers, for 405.
  const routeTable: RouteTableEntry[] = [];
  app.decorate('routeTable', routeTable);
  const allowedMethods = new AllowedMethods(ROUTER_OPTIONS);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({ method: String(method), url: route.url });
      allowedMethods.add(String(method), route.url);
    }
  });

  app.decorate('frontDoor', frontDoor);
  // Requests arriving once the app closes are Fastify's to answer (503, connection closed).
  app.addHook('preClose', (done) => {
    frontDoor.close();
    done();
  });

  // Only when info lines are written: an on-sale's hot path should not build log lines nobody keeps.
  if (logsEveryRequest) {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info(
        { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    });
  }

  await app.register(errorsPlugin);
  await app.register(i18nPlugin);
  await app.register(databasePlugin, { database: options.database });
  await app.register(securityPlugin, { config });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(schedulerPlugin, { enabled: options.runJobs ?? false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Eventry API', version: '1.0.0', description: 'Event discovery and ticket booking' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // swagger-ui writes its own CSP; keep it as strict as the rest of the site about framing and http.
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/;?\s*upgrade-insecure-requests;?/, ';'),
  });
  await app.register(storagePlugin, { config });
  await app.register(uploadsPlugin);
  await app.register(notificationsPlugin, { limits: options.liveLimits });
  await app.register(authPlugin, {
    config,
    sessionCacheTtlMs: options.sessionCacheTtlMs ?? (config.nodeEnv === 'test' ? 0 : SESSION_CACHE_TTL_MS),
  });
  await app.register(mailWorkerPlugin, { config });
  // Before the routes, so that its request hook times every one of them.
  await app.register(metricsPlugin, { token: config.metricsToken });
  // The payment providers are the one thing the booking module and the payment routes share: they are made here,
  // so that neither feature imports the other (docs/architecture.md).
  const payments = createPaymentProviders(config);
  await app.register(ticketingPlugin, { providers: payments.providers, config });
  await app.register(ticketsPlugin, {
    signingKey: config.ticketSigningKey,
    timeZone: config.timeZone,
    appUrl: config.appUrl,
  });

  await app.register(healthRoutes);
  await app.register(i18nRoutesPlugin);
  await app.register(catalogueRoutes, { config });
  await app.register(accountsRoutes);
  await app.register(adminRoutes, { config });
  await app.register(attendeesRoutes, { timeZone: config.timeZone });
  await app.register(dashboardRoutes, { timeZone: config.timeZone });
  await app.register(paymentsRoutes, { ...payments, timeZone: config.timeZone });
  await app.register(contactRoutes, { config });

  const webDir = options.webDir === undefined ? webDistDir : options.webDir;
  const indexHtml = webDir ? path.join(webDir, 'index.html') : undefined;
  if (webDir && indexHtml && existsSync(indexHtml)) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        // Hashed bundles never change; everything else (index.html, favicon) is revalidated.
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const webHtml = webDir && indexHtml && existsSync(indexHtml) ? createWebHtml(app, webDir) : undefined;

  // The API answers unknown paths with a problem; every other GET gets the web app, whose router shows /404.
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname === '/api' || pathname.startsWith('/uploads/')) {
      const allow = allowedMethods.at(pathname);
      if (allow.length > 0) {
        reply.header('allow', allow.join(', '));
        return sendProblem(
          reply,
          405,
          'METHOD_NOT_ALLOWED',
          msg('problems.methodNotAllowed', { method: request.method, path: pathname }),
        );
      }
      return sendProblem(reply, 404, 'NOT_FOUND', msg('problems.noRoute', { method: request.method, path: pathname }));
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && webHtml && indexHtml && existsSync(indexHtml)) {
      // The answer depends on the session cookie: an admin, or a signed-in user on a sign-in page, is sent on, and
      // a visitor's page says it is signed out. Shared caches keep one answer per cookie (Vary), and the redirect,
      // one session's, is never kept.
      const redirect = await sessionRedirect(request);
      if (redirect) {
        return reply.header('cache-control', 'private, no-store').header('vary', 'cookie').redirect(redirect, 302);
      }
      // The page's title, description, preloads and first data are in the HTML (server/web-app/web-html.ts).
      const page = await webHtml.render(request.url, requestLang(request), request.headers.cookie);
      const { body, encoding } = encodeHtml(page.html, request.headers['accept-encoding']);
      reply
        .code(page.status)
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding, cookie, accept-language')
        .type('text/html; charset=utf-8');
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(body);
    }
    // A form the server drew, sent by the browser itself before the app took the page over (web/src/lib/
    // server-drawn-form.ts keeps its button disabled until then, but a browser restoring the button's state or a
    // password manager can still send it): its fields are dropped unread and the page loads again.
    if (request.method === 'POST' && webHtml && matchPage(pathname)) {
      return reply.header('cache-control', 'no-store').redirect(request.url, 303);
    }
    return sendProblem(reply, 404, 'NOT_FOUND', 'problems.notFound');
  });

  return app;
}
