import { afterAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../test/helpers';

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
