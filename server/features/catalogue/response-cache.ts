import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** What a cached answer depends on: one event (its detail page), the events table (lists, search), or neither. */
export type CacheScope = { kind: 'event'; id: string } | { kind: 'events' } | { kind: 'static' };

/** A finished 200 answer: the exact JSON text, its ETag, and compressed variants made on first demand. */
export interface CachedResponse {
  readonly body: string;
  readonly etag: string;
  readonly scope: CacheScope;
  readonly expiresAt: number;
  /** False once a change may have made it stale; it is then never served again. */
  valid: boolean;
  /** How many keys of the cache lead to it. */
  refs: number;
  /** The route pattern it answers ('/api/events/:id'), for the front door's request metrics. */
  readonly route?: string;
  /** Its answers, made on first demand, by form. */
  answers?: Partial<Record<AnswerForm, CachedAnswer>>;
  gzip?: Buffer;
  br?: Buffer;
  compressing?: boolean;
}

export interface ResponseCacheOptions {
  /** Entries kept (URL aliases included); the least recently used go first. */
  maxEntries?: number;
  /** A safety net only: changes arrive as notifications and invalidate at once. */
  ttlMs?: number;
  cacheControl?: string;
}

/** Bodies smaller than this are sent as they are (the same threshold as @fastify/compress). */
const COMPRESS_THRESHOLD = 1024;

/**
 * In-memory cache of finished catalogue answers. Entries are found by a normalised key (filled by the route
 * handler after validation) and by the raw request URL (so that a repeat request is answered in an onRequest
 * hook, before any parsing, validation or database work). Correctness comes from invalidation:
 * - a change of one event invalidates that event's detail and every list and search (any of which may now
 *   show it, hide it or order it differently);
 * - `clear()` (changes may have been missed) invalidates everything;
 * - a fill that was running while a change arrived is served to its callers but not kept, since it may have
 *   read the database before the change committed.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly inFlight = new Map<string, Promise<CachedResponse>>();
  private readonly eventEntries = new Map<string, Set<CachedResponse>>();
  private readonly listEntries = new Set<CachedResponse>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  readonly cacheControl: string;
  /** Bumped by every invalidation; a fill keeps its result only if it did not move meanwhile. */
  private changes = 0;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.cacheControl = options.cacheControl ?? 'no-cache';
  }

  get size(): number {
    return this.entries.size;
  }

  /** A valid entry for `key` (normalised key or raw URL), or undefined. */
  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (!entry.valid || entry.expiresAt < Date.now()) {
      this.removeKey(key, entry);
      this.invalidate(entry);
      return undefined;
    }
    // Least recently used first: move to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * The cached answer for `key`, or `produce()`'s (one call at a time per key; concurrent callers share it).
   * `produce` must return the exact JSON text of a 200 answer; errors propagate and nothing is cached.
   * `route` is the route pattern that answers it.
   */
  async fill(key: string, scope: CacheScope, produce: () => Promise<string>, route?: string): Promise<CachedResponse> {
    const cached = this.get(key);
    if (cached) return cached;
    const running = this.inFlight.get(key);
    if (running) return running;
    const before = this.changes;
    const promise = produce()
      .then((body) => {
        const entry = createEntry(body, scope, Date.now() + this.ttlMs, route);
        entry.valid = this.changes === before;
        if (entry.valid) this.store(key, entry);
        return entry;
      })
      .finally(() => {
        if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
      });
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Makes `alias` (a raw request URL) find `entry` too, while it stays valid. */
  alias(alias: string, entry: CachedResponse): void {
    if (entry.valid) this.setEntry(alias, entry);
  }

  /** Event `id` changed (inserted, edited, booked, deleted): its detail and every list may be stale. */
  invalidateEvent(id: string): void {
    this.changes++;
    // Fills already running may have read the old row: later callers must not join them.
    this.inFlight.clear();
    const forEvent = this.eventEntries.get(id);
    if (forEvent) for (const entry of forEvent) entry.valid = false;
    this.eventEntries.delete(id);
    for (const entry of this.listEntries) entry.valid = false;
    this.listEntries.clear();
  }

  /** Anything may have changed: forget everything. */
  clear(): void {
    this.changes++;
    this.inFlight.clear();
    for (const entry of this.entries.values()) {
      entry.valid = false;
      entry.refs = 0;
    }
    this.entries.clear();
    this.eventEntries.clear();
    this.listEntries.clear();
  }

  private store(key: string, entry: CachedResponse): void {
    if (entry.scope.kind === 'event') {
      let set = this.eventEntries.get(entry.scope.id);
      if (!set) {
        set = new Set();
        this.eventEntries.set(entry.scope.id, set);
      }
      set.add(entry);
    } else if (entry.scope.kind === 'events') {
      this.listEntries.add(entry);
    }
    this.setEntry(key, entry);
  }

  private setEntry(key: string, entry: CachedResponse): void {
    const previous = this.entries.get(key);
    if (previous === entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return;
    }
    if (previous) this.removeKey(key, previous);
    this.entries.set(key, entry);
    entry.refs++;
    while (this.entries.size > this.maxEntries) {
      const [oldest, evicted] = this.entries.entries().next().value as [string, CachedResponse];
      this.removeKey(oldest, evicted);
    }
  }

  /** Drops one key; an entry no key leads to any more leaves the scope indexes too. */
  private removeKey(key: string, entry: CachedResponse): void {
    this.entries.delete(key);
    entry.refs--;
    if (entry.refs <= 0) this.invalidate(entry);
  }

  private invalidate(entry: CachedResponse): void {
    entry.valid = false;
    if (entry.scope.kind === 'event') {
      const set = this.eventEntries.get(entry.scope.id);
      set?.delete(entry);
      if (set?.size === 0) this.eventEntries.delete(entry.scope.id);
    } else if (entry.scope.kind === 'events') {
      this.listEntries.delete(entry);
    }
  }
}

function createEntry(body: string, scope: CacheScope, expiresAt: number, route?: string): CachedResponse {
  return {
    body,
    route,
    etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
    scope,
    expiresAt,
    valid: true,
    refs: 0,
  };
}

/** An answer for one request only (the cache is off): the same bytes, headers and ETag as a cached one. */
export function uncachedEntry(body: string, scope: CacheScope): CachedResponse {
  return { ...createEntry(body, scope, 0), valid: false, compressing: true };
}

/** 'br', 'gzip' or undefined, from an Accept-Encoding header (q=0 refuses a coding). */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  let br = false;
  let gz = false;
  for (const part of value.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === '*') gz = true;
  }
  return br ? 'br' : gz ? 'gzip' : undefined;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag || header.trim() === '*') return true;
  const bare = etag.slice(2);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === bare;
  });
}

function compressInBackground(entry: CachedResponse, encoding: 'br' | 'gzip'): void {
  if (entry.compressing) return;
  entry.compressing = true;
  const input = Buffer.from(entry.body);
  const work =
    encoding === 'br'
      ? brotli(input, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length },
        })
      : gzip(input, { level: 9 });
  work
    .then((out) => {
      entry[encoding] = out;
    })
    .catch(() => {})
    .finally(() => {
      entry.compressing = false;
    });
}

/** The forms a cached entry is sent in: 304, its JSON as it is, or a stored compressed variant. */
export type AnswerForm = 'not-modified' | 'identity' | 'br' | 'gzip';

/** One form of a cached entry, ready to send (made once per entry and form, then reused). */
export interface CachedAnswer {
  readonly status: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** The route pattern it answers (for the front door's request metrics). */
  readonly route?: string;
}

/**
 * Which form answers a request: 304 when the client has the entry, a stored compressed variant when it accepts
 * one, else the JSON as it is. Undefined when the client accepts a coding not stored yet: its compression starts
 * in the background, and this request is compressed on the fly by @fastify/compress.
 */
export function answerForm(
  entry: CachedResponse,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | string[] | undefined,
): AnswerForm | undefined {
  if (etagMatches(ifNoneMatch, entry.etag)) return 'not-modified';
  if (entry.body.length < COMPRESS_THRESHOLD) return 'identity';
  const encoding = preferredEncoding(acceptEncoding);
  if (encoding === undefined) return 'identity';
  if (entry[encoding]) return encoding;
  compressInBackground(entry, encoding);
  return undefined;
}

/** The entry in one form (`cacheControl` is the same for every answer of an entry). */
export function cachedAnswer(entry: CachedResponse, form: AnswerForm, cacheControl: string): CachedAnswer {
  entry.answers ??= {};
  let answer = entry.answers[form];
  if (answer === undefined) {
    answer = makeAnswer(entry, form, cacheControl);
    entry.answers[form] = answer;
  }
  return answer;
}

function makeAnswer(entry: CachedResponse, form: AnswerForm, cacheControl: string): CachedAnswer {
  const headers: Record<string, string> = { etag: entry.etag, 'cache-control': cacheControl };
  if (form === 'not-modified') return { status: 304, headers, route: entry.route };
  headers['content-type'] = 'application/json; charset=utf-8';
  if (entry.body.length >= COMPRESS_THRESHOLD) headers.vary = 'accept-encoding';
  if (form === 'identity') return { status: 200, headers, body: Buffer.from(entry.body), route: entry.route };
  headers['content-encoding'] = form;
  return { status: 200, headers, body: entry[form], route: entry.route };
}

/** Sends a cached answer through Fastify. */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedResponse,
  cacheControl: string,
): FastifyReply {
  const form = answerForm(entry, request.headers['if-none-match'], request.headers['accept-encoding']);
  // A coding not stored yet: the JSON goes to @fastify/compress, which compresses it on the fly.
  const answer = cachedAnswer(entry, form ?? 'identity', cacheControl);
  reply.code(answer.status).headers(answer.headers);
  return answer.body === undefined ? reply.send() : reply.send(answer.body);
}
