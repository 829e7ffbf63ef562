/**
 * Serves many concurrent requests of one kind with few statements. Requests for the same key that
 * arrive while a batch of that key is running wait, and the next batch takes all of them (up to
 * `maxBatch`). `inFlight` batches of a key run at once: with two, the next one is already on its way to
 * the database when the first finishes, so the database is never idle while this process goes round the
 * network. The cost of a statement and its commit (round trips, a WAL flush) is shared by the whole batch.
 *
 * `run` resolves or rejects every item it is given except those it returns, which wait for the next batch
 * (e.g. a second request of the same buyer). A batch failing with a serialization failure or a deadlock is
 * run again (a failed statement changed nothing); any other error rejects the batch's items.
 */

export interface Waiting<I, O> {
  input: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

const RETRYABLE = new Set(['40001', '40P01']);
const MAX_RETRIES = 3;

interface Line<I, O> {
  queue: Array<Waiting<I, O>>;
  running: number;
  /** A pump is due at the end of this turn of the event loop. */
  scheduled: boolean;
}

export class Batcher<I, O> {
  private readonly lines = new Map<string, Line<I, O>>();

  constructor(
    private readonly run: (key: string, batch: Array<Waiting<I, O>>) => Promise<Array<Waiting<I, O>>>,
    private readonly options: { maxBatch: number; inFlight: number },
  ) {}

  submit(key: string, input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      let line = this.lines.get(key);
      if (!line) {
        line = { queue: [], running: 0, scheduled: false };
        this.lines.set(key, line);
      }
      line.queue.push({ input, resolve, reject });
      this.schedule(key, line);
    });
  }

  /**
   * Batches start at the end of the event loop's turn (setImmediate), not on the first submit: the requests
   * that arrive together (a burst of buyers whose sockets became readable at once) then leave together,
   * instead of the first one taking a free slot alone and the rest waiting for its commit.
   */
  private schedule(key: string, line: Line<I, O>): void {
    if (line.scheduled) return;
    line.scheduled = true;
    setImmediate(() => {
      line.scheduled = false;
      this.pump(key, line);
    });
  }

  private pump(key: string, line: Line<I, O>): void {
    while (line.queue.length > 0 && line.running < this.options.inFlight) {
      const batch = line.queue.splice(0, this.options.maxBatch);
      line.running += 1;
      this.runWithRetry(key, batch)
        .then((deferred) => line.queue.unshift(...deferred))
        .catch((error: unknown) => {
          for (const item of batch) item.reject(error);
        })
        .finally(() => {
          line.running -= 1;
          if (line.running === 0 && line.queue.length === 0 && !line.scheduled) this.lines.delete(key);
          else this.schedule(key, line);
        });
    }
  }

  private async runWithRetry(key: string, batch: Array<Waiting<I, O>>): Promise<Array<Waiting<I, O>>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.run(key, batch);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt < MAX_RETRIES && code && RETRYABLE.has(code)) continue;
        throw error;
      }
    }
  }
}
