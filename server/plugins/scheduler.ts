import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hitCounter, peekCounter } from '../db/counters';

/**
 * Periodic background work (archiving past events, releasing expired holds, delivering email).
 * A job's periods are fixed instants shared by every process (multiples of its interval since the epoch), and
 * every process tries it at each of them. A try takes a PostgreSQL advisory lock named after the job, so only
 * one process at a time runs it, and under that lock asks the database whether this period's run was made
 * already (a counter in rate_limits, written when a run ends): with several app processes on one database a job
 * runs once per period, not once per process. A run cut off by a crash is not written, so the next try runs it.
 */
export interface Scheduler {
  every(name: string, intervalMs: number, job: () => Promise<unknown>): void;
  /** Runs a job now under its lock (used at start-up and by tests); false when another process holds it. */
  runNow(name: string, job: () => Promise<unknown>): Promise<boolean>;
  /** Told what became of each scheduled try (the metrics count them). */
  onTry(listener: (job: string, outcome: JobOutcome) => void): void;
  /** The scheduled jobs of this process and their periods in milliseconds. */
  readonly periods: ReadonlyMap<string, number>;
}

/**
 * What became of a scheduled try: the job ran (or failed) here; another process was running it (busy); or
 * this period's run was made already, here or elsewhere (done).
 */
export type JobOutcome = 'ran' | 'failed' | 'busy' | 'done';

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
  }
}

export const schedulerPlugin = fp(
  async function scheduler(app: FastifyInstance, opts: { enabled: boolean }) {
    const timers = new Set<NodeJS.Timeout>();
    const running = new Set<Promise<unknown>>();
    const listeners: Array<(job: string, outcome: JobOutcome) => void> = [];
    const periods = new Map<string, number>();
    let closing = false;

    /** Runs the job under its lock, unless another process holds it or `period`'s run was made already. */
    async function attempt(
      name: string,
      job: () => Promise<unknown>,
      period?: { start: number; ms: number },
    ): Promise<'ran' | 'busy' | 'done'> {
      const key = `eventry:job:${name}`;
      const client = await app.database.pool.connect();
      let locked = false;
      try {
        const res = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
          key,
        ]);
        locked = res.rows[0]?.locked === true;
        if (!locked) return 'busy';
        if (period && (await peekCounter(app.database.db, key, period.ms, period.start)).count > 0) return 'done';
        try {
          await job();
        } finally {
          // Failed runs count too: a job that keeps failing is tried once per period, not by every process.
          if (period) {
            await hitCounter(app.database.db, key, period.ms, period.start).catch((err: unknown) =>
              app.log.warn({ err, job: name }, 'job run not recorded: another process may run it again this period'),
            );
          }
        }
        return 'ran';
      } finally {
        // A session-level lock stays with its connection: one that could not be released (the connection broke,
        // the statement failed) must not go back to the pool, where it would keep the job locked for every
        // process until that connection closed. Destroying the connection releases it.
        let released = !locked;
        if (locked) {
          released = await client
            .query<{ unlocked: boolean }>('SELECT pg_advisory_unlock(hashtext($1)) AS unlocked', [key])
            .then((res) => res.rows[0]?.unlocked === true)
            .catch(() => false);
          if (!released) app.log.warn({ job: name }, 'job lock not released: its connection is closed instead');
        }
        client.release(released ? undefined : true);
      }
    }

    async function runNow(name: string, job: () => Promise<unknown>): Promise<boolean> {
      return (await attempt(name, job)) !== 'busy';
    }

    function report(name: string, outcome: JobOutcome): void {
      for (const listener of listeners) listener(name, outcome);
    }

    function every(name: string, intervalMs: number, job: () => Promise<unknown>): void {
      if (!opts.enabled) return;
      periods.set(name, intervalMs);
      let timer: NodeJS.Timeout | undefined;
      const tick = () => {
        if (timer) timers.delete(timer);
        if (closing) return;
        const start = Math.floor(Date.now() / intervalMs) * intervalMs;
        const run = attempt(name, job, { start, ms: intervalMs })
          .then(
            (outcome) => report(name, outcome),
            (err: unknown) => {
              app.log.error({ err, job: name }, 'scheduled job failed');
              report(name, 'failed');
            },
          )
          .finally(() => running.delete(run));
        running.add(run);
        // At the next period's start, in every process alike (a timer that fired late does not shift the next).
        timer = setTimeout(tick, start + intervalMs - Date.now());
        timer.unref();
        timers.add(timer);
      };
      // A process that starts tries at once: this period's run is made unless another process made it.
      app.addHook('onReady', async () => tick());
    }

    app.decorate('scheduler', {
      every,
      runNow,
      onTry: (listener) => listeners.push(listener),
      periods,
    } satisfies Scheduler);
    app.addHook('onClose', async () => {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.allSettled([...running]);
    });
  },
  { name: 'scheduler', dependencies: ['database'] },
);
