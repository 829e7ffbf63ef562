import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/**
 * An answer that is ready before Fastify sees the request: a finished catalogue answer kept in memory. The same
 * object is given for every request it answers (the door keeps the header lines it made for it).
 */
export interface FrontAnswer {
  readonly status: 200 | 304;
  /** The answer's own headers (ETag, caching, type, coding); the security headers are added by the door. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** The route pattern it belongs to ('/api/events/:id'), for the request metrics. */
  readonly route?: string;
}

/** Returns the ready answer to a GET of `url` (the raw request URL), or undefined to let Fastify answer it. */
export type FrontAnswerer = (url: string, headers: IncomingHttpHeaders) => FrontAnswer | undefined;

/**
 * The HTTP server's first look at each request. A GET whose answer is already finished in memory (the catalogue's
 * response cache: an on-sale's flood of list and event reads) is written here, without Fastify's request and reply
 * objects, routing, hooks and child logger: about a quarter of the CPU such a request costs through Fastify
 * (docs/performance-notes.md). Everything else goes to Fastify untouched.
 *
 * Only URLs that Fastify has answered (through every hook: the security checks, validation) are ever in the
 * cache, and the answer written here is byte for byte the one Fastify would write from the same entry (the
 * security headers, ETag/304, the stored compressed variants; a coding not stored yet goes to Fastify, which
 * compresses on the fly). The door stands aside while the app closes (Fastify answers 503) and when every request
 * is logged (LOG_LEVEL info or lower).
 */
export class FrontDoor {
  private answerer: FrontAnswerer | undefined;
  private open: boolean;
  private securityHeaders: Readonly<Record<string, string>> = {};
  private observe: ((route: string, status: number, seconds: number) => void) | undefined;
  /**
   * Each answer's header lines, made once: building a header object per request cost a fifth of the request
   * (docs/performance-notes.md, 2026-11-29).
   */
  private readonly lines = new WeakMap<FrontAnswer, string[]>();

  constructor(options: { enabled: boolean }) {
    this.open = options.enabled;
  }

  /** The headers every /api/ answer carries (server/plugins/security.ts). */
  setSecurityHeaders(headers: Readonly<Record<string, string>>): void {
    this.securityHeaders = headers;
  }

  /** Who may answer: the catalogue's response cache. */
  serve(answerer: FrontAnswerer): void {
    this.answerer = answerer;
  }

  /** Told of each answer the door writes (the request metrics, server/plugins/metrics.ts). */
  onAnswered(observe: (route: string, status: number, seconds: number) => void): void {
    this.observe = observe;
  }

  /** From now on every request goes to Fastify (the app is closing: it answers 503 and closes connections). */
  close(): void {
    this.open = false;
  }

  /** Writes the answer and returns true, or returns false for Fastify to answer. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (!this.open || this.answerer === undefined || request.method !== 'GET' || request.url === undefined) {
      return false;
    }
    const started = this.observe ? performance.now() : 0;
    const ready = this.answerer(request.url, request.headers);
    if (ready === undefined) return false;
    let lines = this.lines.get(ready);
    if (lines === undefined) {
      lines = Object.entries({ ...this.securityHeaders, ...ready.headers }).flat();
      if (ready.body !== undefined) lines.push('content-length', String(ready.body.length));
      this.lines.set(ready, lines);
    }
    response.writeHead(ready.status, lines);
    response.end(ready.body);
    this.observe?.(ready.route ?? 'unmatched', ready.status, (performance.now() - started) / 1000);
    return true;
  }

  /** Fastify's serverFactory: the HTTP server Fastify would make, with the door in front of its handler. */
  serverFactory(): FastifyServerFactory {
    return (handler, options) => {
      const number = (name: string) => (typeof options[name] === 'number' ? (options[name] as number) : undefined);
      const server = http.createServer((options.http ?? {}) as http.ServerOptions, (request, response) => {
        if (!this.answer(request, response)) handler(request, response);
      });
      // What Fastify sets on the server it makes itself (fastify/lib/server.js), from its resolved options.
      const keepAliveTimeout = number('keepAliveTimeout');
      const requestTimeout = number('requestTimeout');
      const connectionTimeout = number('connectionTimeout');
      const maxRequestsPerSocket = number('maxRequestsPerSocket');
      if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
      if (requestTimeout !== undefined) server.requestTimeout = requestTimeout;
      if (connectionTimeout !== undefined) server.setTimeout(connectionTimeout);
      if (maxRequestsPerSocket !== undefined && maxRequestsPerSocket > 0)
        server.maxRequestsPerSocket = maxRequestsPerSocket;
      return server;
    };
  }
}
