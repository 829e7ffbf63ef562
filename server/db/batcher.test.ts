import { describe, expect, it } from 'vitest';
import { Batcher, type Waiting } from './batcher';

/** A batcher whose batches wait until the test lets them finish; records what each batch held. */
function recordingBatcher(options: { maxBatch: number; inFlight: number }) {
  const batches: number[][] = [];
  const finishers: Array<() => void> = [];
  const batcher = new Batcher<number, number>(async (_key, batch: Array<Waiting<number, number>>) => {
    batches.push(batch.map((item) => item.input));
    await new Promise<void>((resolve) => finishers.push(resolve));
    for (const item of batch) item.resolve(item.input * 10);
    return [];
  }, options);
  const finishNext = async () => {
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batcher, batches, finishNext };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('sends the requests of one turn of the event loop together, even with a slot free', async () => {
    const { batcher, batches, finishNext } = recordingBatcher({ maxBatch: 100, inFlight: 2 });
    const answers = [1, 2, 3, 4, 5].map((n) => batcher.submit('a', n));
    await turn();
    expect(batches).toEqual([[1, 2, 3, 4, 5]]);
    await finishNext();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
  });

  it('runs at most inFlight batches of a key; what arrives meanwhile leaves in the next one', async () => {
    const { batcher, batches, finishNext } = recordingBatcher({ maxBatch: 100, inFlight: 2 });
    const first = batcher.submit('a', 1);
    await turn();
    const second = batcher.submit('a', 2);
    await turn();
    const waiting = [3, 4, 5].map((n) => batcher.submit('a', n));
    await turn();
    expect(batches).toEqual([[1], [2]]);
    await finishNext();
    expect(await first).toBe(10);
    expect(batches).toEqual([[1], [2], [3, 4, 5]]);
    await finishNext();
    await finishNext();
    expect(await second).toBe(20);
    expect(await Promise.all(waiting)).toEqual([30, 40, 50]);
  });

  it('splits a burst larger than maxBatch and keeps keys apart', async () => {
    const { batcher, batches, finishNext } = recordingBatcher({ maxBatch: 2, inFlight: 2 });
    const answers = [1, 2, 3].map((n) => batcher.submit('a', n));
    const other = batcher.submit('b', 9);
    await turn();
    expect(batches).toEqual([[1, 2], [3], [9]]);
    for (let i = 0; i < 3; i++) await finishNext();
    expect(await Promise.all([...answers, other])).toEqual([10, 20, 30, 90]);
  });

  it('retries a batch that hit a serialization failure, and rejects it on any other error', async () => {
    let calls = 0;
    const batcher = new Batcher<number, number>(
      async (_key, batch) => {
        calls++;
        if (calls === 1) throw Object.assign(new Error('could not serialize'), { code: '40001' });
        if (batch.some((item) => item.input < 0)) throw new Error('broken');
        for (const item of batch) item.resolve(item.input);
        return [];
      },
      { maxBatch: 10, inFlight: 1 },
    );
    expect(await batcher.submit('a', 7)).toBe(7);
    expect(calls).toBe(2);
    await expect(batcher.submit('a', -1)).rejects.toThrow('broken');
  });

  it('gives deferred items to the next batch', async () => {
    const seen: number[][] = [];
    const batcher = new Batcher<number, number>(
      async (_key, batch) => {
        seen.push(batch.map((item) => item.input));
        const [first, ...rest] = batch;
        first?.resolve(first.input);
        return rest;
      },
      { maxBatch: 10, inFlight: 1 },
    );
    expect(await Promise.all([1, 2, 3].map((n) => batcher.submit('a', n)))).toEqual([1, 2, 3]);
    expect(seen).toEqual([[1, 2, 3], [2, 3], [3]]);
  });
});
