import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Periodic background work (archiving past events, releasing expired holds, delivering email).
 * Each run takes a PostgreSQL advisory lock named after the job, so with several app processes on
 * one database only one of them runs a given job at a time.
 */
export interface Scheduler {
  every(name: string, intervalMs: number, job: () => Promise<unknown>): void;
  /** Runs a job now under its lock (used at start-up and by tests); false when another process holds it. */
  runNow(name: string, job: () => Promise<unknown>): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
  }
}

export const schedulerPlugin = fp(
  async function scheduler(app: FastifyInstance, opts: { enabled: boolean }) {
    const timers = new Set<NodeJS.Timeout>();
    const running = new Set<Promise<unknown>>();
    let closing = false;

    async function runNow(name: string, job: () => Promise<unknown>): Promise<boolean> {
      const client = await app.database.pool.connect();
      let locked = false;
      try {
        const res = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
          `eventry:job:${name}`,
        ]);
        locked = res.rows[0]?.locked === true;
        if (!locked) return false;
        await job();
        return true;
      } finally {
        // A session-level lock stays with its connection: one that could not be released (the connection broke,
        // the statement failed) must not go back to the pool, where it would keep the job locked for every
        // process until that connection closed. Destroying the connection releases it.
        let released = !locked;
        if (locked) {
          released = await client
            .query<{ unlocked: boolean }>('SELECT pg_advisory_unlock(hashtext($1)) AS unlocked', [
              `eventry:job:${name}`,
            ])
            .then((res) => res.rows[0]?.unlocked === true)
            .catch(() => false);
          if (!released) app.log.warn({ job: name }, 'job lock not released: its connection is closed instead');
        }
        client.release(released ? undefined : true);
      }
    }

    function every(name: string, intervalMs: number, job: () => Promise<unknown>): void {
      if (!opts.enabled) return;
      const tick = () => {
        if (closing) return;
        const run = runNow(name, job)
          .catch((err: unknown) => app.log.error({ err, job: name }, 'scheduled job failed'))
          .finally(() => running.delete(run));
        running.add(run);
      };
      app.addHook('onReady', async () => {
        tick();
        const timer = setInterval(tick, intervalMs);
        timer.unref();
        timers.add(timer);
      });
    }

    app.decorate('scheduler', { every, runNow });
    app.addHook('onClose', async () => {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    });
  },
  { name: 'scheduler', dependencies: ['database'] },
);
