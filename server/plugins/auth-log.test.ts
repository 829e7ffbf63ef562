import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { betterAuthLog } from './auth';

/** A real pino logger writing into an array: what the app's log would hold. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

/** What drizzle throws for a failed insert: the query and its parameters, the driver's error as the cause. */
function failedInsert(cause: Error & { code?: string }) {
  return new Error(
    'Failed query: insert into "users" ("id", "name", "email") values ($1, $2, $3)\nparams: 1,Mona Hassan,mona@example.com',
    { cause },
  );
}

describe("better-auth's log lines in the app's log", () => {
  it('logs a unique violation (two sign-ups of one email at once) as info, without the query parameters', () => {
    const { lines, log } = capture();
    const duplicate = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
      code: '23505',
    });
    betterAuthLog(log)('error', 'Failed to create user', failedInsert(duplicate));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'better-auth: Failed to create user (a concurrent request created it first)',
      error: { code: '23505', message: 'duplicate key value violates unique constraint "users_email_unique"' },
    });
    expect(JSON.stringify(lines[0])).not.toContain('mona@example.com');
  });

  it('logs any other failure as an error, by its message and code, without the query parameters', () => {
    const { lines, log } = capture();
    const down = Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
    betterAuthLog(log)('error', 'Failed to create user', failedInsert(down));
    betterAuthLog(log)('error', 'Something else', failedInsert(new Error('boom')).cause);
    expect(lines.map(({ level, msg, error }) => ({ level, msg, error }))).toEqual([
      {
        level: 50,
        msg: 'better-auth: Failed to create user',
        error: { name: 'Error', message: 'Connection terminated unexpectedly', code: '57P01' },
      },
      { level: 50, msg: 'better-auth: Something else', error: { name: 'Error', message: 'boom' } },
    ]);
    expect(JSON.stringify(lines)).not.toContain('mona@example.com');
  });

  it('logs a refused callback URL (anyone can send one) as a warning, not an error', async () => {
    const { lines, log } = capture();
    betterAuthLog(log)('error', `Invalid callbackURL: https://evil.example/${'x'.repeat(1000)}`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40 });
    expect(String(lines[0]?.msg)).toMatch(/^better-auth: Invalid callbackURL: https:\/\/evil\.example\/x+$/);
    expect(String(lines[0]?.msg).length).toBeLessThan(400);
  });

  it('keeps the level of a line that is not a failure', () => {
    const { lines, log } = capture();
    betterAuthLog(log)('warn', 'Rate limit storage is slow');
    expect(lines[0]).toMatchObject({ level: 40, msg: 'better-auth: Rate limit storage is slow' });
  });
});
