import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { type AppProcess, rawGet, stopChild, track } from './processes';

export interface LoadResult {
  url: string;
  connections: number;
  durationS: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerResponse: number;
}

/** What autocannon gives back with `skipAggregateResult`, and the latencies of its 2xx answers. */
interface RawRun {
  totalCompletedRequests: number;
  totalBytes: number;
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: LatencyHistogram;
}

/** Latency counts in 10 µs steps up to 1 s (one count above for anything slower). */
const STEP_MS = 0.01;
const STEPS = 100_000;

/**
 * Latencies at 10 µs resolution. autocannon's own histogram keeps whole milliseconds (2.9 ms counts as 2), which
 * made a ratio of two p99s of a few milliseconds jump by a third or a half: 2 ms against 4 read as 200 %.
 */
export class LatencyHistogram {
  private readonly counts = new Uint32Array(STEPS + 1);
  private total = 0;
  private maxMs = 0;

  record(ms: number): void {
    const step = Math.min(STEPS, Math.max(0, Math.floor(ms / STEP_MS)));
    this.counts[step] = (this.counts[step] ?? 0) + 1;
    this.total++;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  add(other: LatencyHistogram): void {
    for (let i = 0; i <= STEPS; i++) this.counts[i] = (this.counts[i] ?? 0) + (other.counts[i] ?? 0);
    this.total += other.total;
    this.maxMs = Math.max(this.maxMs, other.maxMs);
  }

  /** The latency (ms, to 0.01) that `percent` % of answers did not exceed: the upper edge of its step. */
  percentile(percent: number): number {
    if (this.total === 0) return 0;
    const rank = Math.ceil((percent / 100) * this.total);
    let seen = 0;
    for (let i = 0; i <= STEPS; i++) {
      seen += this.counts[i] ?? 0;
      if (seen >= rank) return i === STEPS ? round(this.maxMs, 2) : round(Math.min((i + 1) * STEP_MS, this.maxMs), 2);
    }
    return round(this.maxMs, 2);
  }

  get max(): number {
    return round(this.maxMs, 2);
  }
}

async function rawRun(
  url: string,
  connections: number,
  durationS: number,
  headers: Record<string, string> = {},
): Promise<RawRun> {
  const latency = new LatencyHistogram();
  // Without a callback autocannon returns its tracker (an event emitter), made thenable; its types say Promise.
  const instance = autocannon({
    url,
    connections,
    duration: durationS,
    headers,
    skipAggregateResult: true,
  }) as unknown as PromiseLike<unknown> & {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): void;
  };
  // Every answer's time as autocannon measured it (ms, fractional); 2xx only, as autocannon's own histogram.
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latency.record(responseTime);
  });
  const run = (await instance) as unknown as Omit<RawRun, 'latency'>;
  return { ...run, latency };
}

/** Several raw runs of one URL as one result: latency percentiles over every request of every run. */
function merged(url: string, connections: number, runs: RawRun[]): LoadResult {
  const latency = new LatencyHistogram();
  for (const run of runs) latency.add(run.latency);
  const sum = (pick: (run: RawRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const requests = sum((run) => run.totalCompletedRequests);
  const seconds = sum((run) => run.duration);
  return {
    url,
    connections,
    durationS: round(seconds, 2),
    requestsPerSecond: seconds > 0 ? round(requests / seconds) : 0,
    latencyP50Ms: latency.percentile(50),
    latencyP99Ms: latency.percentile(99),
    latencyMaxMs: latency.max,
    requests,
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    bytesPerResponse: requests > 0 ? Math.round(sum((run) => run.totalBytes) / requests) : 0,
  };
}

/**
 * Ours and the ceiling measured in turns (no accept-encoding, so neither side compresses): after a warm-up of
 * each, `slices` short runs of each side in the order ours, ceiling, ceiling, ours, ours, …, and each side's
 * runs merged into one result (latency percentiles over all its requests). This machine's speed changes from
 * minute to minute: measured one after the other, 12 s each, a ratio could set ours in a slow minute against
 * the ceiling in a fast one (39 % in one run, 68–75 % in a run minutes before it); in turns, a change of
 * speed falls on both alike.
 */
export async function loadInTurns(
  oursUrl: string,
  ceilingUrl: string,
  connections: number,
  durationS: number,
  slices = 4,
  warmupS = 2,
  /** Sent with every request to both sides (a signed-in admin's cookie: the ceiling ignores it). */
  headers: Record<string, string> = {},
): Promise<{ ours: LoadResult; ceiling: LoadResult }> {
  if (warmupS > 0) {
    await rawRun(oursUrl, connections, warmupS, headers);
    await rawRun(ceilingUrl, connections, warmupS, headers);
  }
  const slice = durationS / slices;
  const ours: RawRun[] = [];
  const ceiling: RawRun[] = [];
  for (let i = 0; i < slices; i++) {
    const order = i % 2 === 0 ? (['ours', 'ceiling'] as const) : (['ceiling', 'ours'] as const);
    for (const side of order) {
      if (side === 'ours') ours.push(await rawRun(oursUrl, connections, slice, headers));
      else ceiling.push(await rawRun(ceilingUrl, connections, slice, headers));
    }
  }
  return { ours: merged(oursUrl, connections, ours), ceiling: merged(ceilingUrl, connections, ceiling) };
}

/**
 * One connection per URL, all at once for `durationS` (after `warmupS` of the same): clients that each ask for
 * something of their own. Latency percentiles over every request; the rate is all requests over the wall time.
 */
export async function loadEach(
  urls: string[],
  durationS: number,
  warmupS = 1,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  if (warmupS > 0) await Promise.all(urls.map((url) => rawRun(url, 1, warmupS, headers)));
  const started = performance.now();
  const runs = await Promise.all(urls.map((url) => rawRun(url, 1, durationS, headers)));
  const seconds = (performance.now() - started) / 1000;
  const result = merged(urls[0] ?? '', urls.length, runs);
  return { ...result, durationS: round(seconds, 2), requestsPerSecond: round(result.requests / seconds) };
}

export interface CeilingServer {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts bench/ceiling-server.mjs in its own process, serving `bodies` (url → JSON text) from memory. */
export async function startCeiling(benchDir: string, workDir: string, bodies: Record<string, string>) {
  const file = path.join(workDir, 'ceiling-bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const child = track(
    spawn(process.execPath, [path.join(benchDir, 'ceiling-server.mjs'), file], {
      cwd: path.dirname(benchDir),
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('ceiling server did not start in 15 s')), 15_000);
    child.once('exit', (code) => reject(new Error(`ceiling server exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = chunk.toString().match(/LISTENING (\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (const url of Object.keys(bodies).filter((key) => key.startsWith('/'))) {
    const response = await rawGet(`${baseUrl}${url}`);
    if (response.status !== 200) throw new Error(`ceiling server answered ${response.status} for ${url}`);
  }
  return { baseUrl, pid: child.pid as number, stop: () => stopChild(child) } satisfies CeilingServer;
}

/** Fetches the app's JSON body for a URL (used verbatim by the ceiling); undefined when the route is missing. */
export async function fetchJsonBody(app: AppProcess, url: string): Promise<string | undefined> {
  try {
    const response = await rawGet(`${app.baseUrl}${url}`, { accept: 'application/json' });
    if (response.status !== 200) return undefined;
    if (!String(response.headers['content-type'] ?? '').includes('json')) return undefined;
    return response.body.toString('utf8');
  } catch {
    return undefined;
  }
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
