import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { setupTestApp } from '../test/helpers';
import { databasePlugin } from './database';
import { type JobOutcome, schedulerPlugin } from './scheduler';

const ctx = await setupTestApp();
afterAll(() => ctx.close());

/** Whether a job's lock is free: another session can take it (and gives it back). */
async function lockIsFree(name: string): Promise<boolean> {
  const client = await ctx.database.pool.connect();
  try {
    const res = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
      `eventry:job:${name}`,
    ]);
    if (res.rows[0]?.locked) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`eventry:job:${name}`]);
    return res.rows[0]?.locked === true;
  } finally {
    client.release();
  }
}

describe('the scheduler', () => {
  it('releases its lock after a run', async () => {
    expect(await ctx.app.scheduler.runNow('plain', async () => {})).toBe(true);
    expect(await lockIsFree('plain')).toBe(true);
  });

  it('never returns a connection that may still hold a job lock to the pool', async () => {
    // The unlock statement fails (a network error, a timeout) on a connection that stays open and still holds
    // the session-level lock. Pooled again, that connection would keep the job locked for every process.
    const pool = ctx.database.pool;
    const connect = pool.connect.bind(pool);
    let faulty: { processID?: number } | undefined;
    (pool as { connect: unknown }).connect = async () => {
      (pool as { connect: unknown }).connect = connect;
      const client = await connect();
      faulty = client as unknown as { processID?: number };
      const query = client.query.bind(client);
      (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) =>
        typeof text === 'string' && text.includes('pg_advisory_unlock')
          ? Promise.reject(new Error('connection reset while unlocking'))
          : (query as (...args: unknown[]) => unknown)(text, ...rest);
      return client;
    };
    expect(await ctx.app.scheduler.runNow('flaky', async () => {})).toBe(true);
    expect(faulty).toBeDefined();
    // The connection was closed, which releases its locks: the job can run again, here or in another process.
    await expect.poll(() => lockIsFree('flaky')).toBe(true);
    expect(await ctx.app.scheduler.runNow('flaky', async () => {})).toBe(true);
  });
});

describe('scheduled jobs on several processes', () => {
  /** A process of its own (pools, scheduler) on the test's database that runs `name` every `intervalMs`. */
  async function startProcess(name: string, intervalMs: number, job: () => Promise<void>, label = 'scheduler-test') {
    const database = openDatabase({ ...ctx.database.connection, application_name: label });
    const app = Fastify({ logger: false });
    await app.register(databasePlugin, { database });
    await app.register(schedulerPlugin, { enabled: true });
    const outcomes: JobOutcome[] = [];
    app.scheduler.onTry((job, outcome) => {
      if (job === name) outcomes.push(outcome);
    });
    app.scheduler.every(name, intervalMs, job);
    return {
      app,
      outcomes,
      async close() {
        await app.close();
        await database.close();
      },
    };
  }

  it('runs a job once per period across the processes, not once in each', async () => {
    const period = 400;
    let runs = 0;
    const job = async () => {
      runs++;
    };
    const processes = await Promise.all([1, 2, 3].map(() => startProcess('shared', period, job)));
    const started = Date.now();
    await Promise.all(processes.map((p) => p.app.ready()));
    await new Promise((r) => setTimeout(r, 10 * period));
    await Promise.all(processes.map((p) => p.close()));
    // The periods begun while they ran, the one they started in included.
    const periods = Math.floor(Date.now() / period) - Math.floor(started / period) + 1;
    expect(runs).toBeLessThanOrEqual(periods);
    // Late timers on a busy machine may miss a period; three processes each running it would be thrice as many.
    expect(runs).toBeGreaterThanOrEqual(periods / 2);
    const all = processes.flatMap((p) => p.outcomes);
    expect(all.filter((o) => o === 'ran')).toHaveLength(runs);
    // The others came in each period and found its run made, or being made.
    expect(all.filter((o) => o === 'done' || o === 'busy').length).toBeGreaterThanOrEqual(runs);
  });

  it("runs a period's job again when the run was cut off before it ended, and once when it failed", async () => {
    // Periods of an hour: every try below falls in the same one.
    const period = 3_600_000;
    let runs = 0;
    const first = await startProcess('cut-off', period, async () => {
      runs++;
      throw new Error('the run failed');
    });
    await first.app.ready();
    await expect.poll(() => first.outcomes).toEqual(['failed']);
    // A failed run counts as the period's: another process does not try it again at once.
    const second = await startProcess('cut-off', period, async () => {
      runs++;
    });
    await second.app.ready();
    await expect.poll(() => second.outcomes).toEqual(['done']);
    expect(runs).toBe(1);
    await Promise.all([first.close(), second.close()]);

    let cutRuns = 0;
    const never = new Promise<void>(() => {});
    const dying = await startProcess(
      'dies',
      period,
      async () => {
        cutRuns++;
        await never;
      },
      'scheduler-dying',
    );
    await dying.app.ready();
    await expect.poll(() => cutRuns).toBe(1);
    // The process dies in its run: its connections close, the job's lock with them, and no run was recorded.
    await ctx.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'scheduler-dying'`,
    );
    const next = await startProcess('dies', period, async () => {
      cutRuns++;
    });
    await next.app.ready();
    await expect.poll(() => next.outcomes).toEqual(['ran']);
    expect(cutRuns).toBe(2);
    await next.close();
  });
});
