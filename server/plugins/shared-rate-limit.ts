import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hitCounter, peekCounter } from '../db/counters';
import { AppError } from './errors';

/**
 * @fastify/rate-limit with its counts in PostgreSQL (the fixed-window counters of db/counters.ts), so that a
 * limit holds across every process of one database: with counts in each process's memory, N processes
 * allowed N times the limit. Registered in a plugin scope, it limits only the routes that ask for it
 * (`config.rateLimit`). `name` keeps the scope's counters apart from any other's.
 */
export async function registerSharedRateLimit(
  scope: FastifyInstance,
  options: {
    name: string;
    /** Who is counted (default: the client's address). */
    keyGenerator?: (request: FastifyRequest) => string | Promise<string>;
    /** The 429's message, given the seconds to wait. */
    message: (seconds: number) => string;
  },
): Promise<void> {
  const db = scope.database.db;
  const counterKey = (key: string) => `limit:${options.name}:${key}`;
  class SharedStore {
    incr(key: string, done: (error: Error | null, state?: { current: number; ttl: number }) => void, windowMs: number) {
      const now = Date.now();
      hitCounter(db, counterKey(key), windowMs, now).then(
        ({ count, windowStart }) => done(null, { current: count, ttl: Math.max(0, windowStart + windowMs - now) }),
        (error: Error) => done(error),
      );
    }
    read(key: string, done: (error: Error | null, state?: { current: number; ttl: number }) => void, windowMs: number) {
      const now = Date.now();
      peekCounter(db, counterKey(key), windowMs, now).then(
        ({ count, windowStart }) =>
          done(null, { current: count, ttl: count === 0 ? 0 : Math.max(0, windowStart + windowMs - now) }),
        (error: Error) => done(error),
      );
    }
    child() {
      return this;
    }
  }
  await scope.register(rateLimit, {
    global: false,
    store: SharedStore,
    // The database being unreachable fails the request itself; the limit does not add a second error.
    skipOnError: true,
    ...(options.keyGenerator ? { keyGenerator: options.keyGenerator } : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'RATE_LIMITED', options.message(Math.max(1, Math.ceil(context.ttl / 1000)))),
  });
}
