import { describe, expect, it } from 'vitest';
import { withImageSlot } from './storage';

/** A job that finishes when told to. */
function job() {
  let finish: (fail?: boolean) => void = () => {};
  const done = new Promise<string>((resolve, reject) => {
    finish = (fail) => (fail ? reject(new Error('broken image')) : resolve('ok'));
  });
  return { done, finish: (fail?: boolean) => finish(fail) };
}

describe('withImageSlot', () => {
  it('decodes two images at once; the others wait their turn, in order, and a failure frees its slot', async () => {
    const jobs = Array.from({ length: 5 }, job);
    const started: number[] = [];
    const results = jobs.map((j, i) =>
      withImageSlot(() => {
        started.push(i);
        return j.done;
      }).catch((error: Error) => error.message),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);

    jobs[1]?.finish(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    jobs[0]?.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3]);
    for (const j of jobs.slice(2)) j.finish();
    expect(await Promise.all(results)).toEqual(['ok', 'broken image', 'ok', 'ok', 'ok']);
    expect(started).toEqual([0, 1, 2, 3, 4]);

    // All slots were given back: two new jobs start at once.
    const again = [job(), job()];
    const seen: number[] = [];
    const more = again.map((j, i) =>
      withImageSlot(() => {
        seen.push(i);
        return j.done;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([0, 1]);
    for (const j of again) j.finish();
    await Promise.all(more);
  });
});
