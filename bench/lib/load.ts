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

/** What autocannon gives back with `skipAggregateResult`: counts and encoded histograms, to merge later. */
interface RawRun {
  totalCompletedRequests: number;
  totalBytes: number;
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function rawRun(
  url: string,
  connections: number,
  durationS: number,
  headers: Record<string, string> = {},
): Promise<RawRun> {
  return autocannon({
    url,
    connections,
    duration: durationS,
    headers,
    skipAggregateResult: true,
  }) as unknown as Promise<RawRun>;
}

/** Several raw runs of one URL as one result: latency percentiles over every request of every run. */
function merged(url: string, connections: number, runs: RawRun[]): LoadResult {
  // autocannon's own merge of runs (histograms added together); its type definitions leave it out.
  const { aggregateResult } = autocannon as unknown as {
    aggregateResult(
      runs: RawRun[],
      opts: { url: string; connections: number },
    ): {
      latency: { p50: number; p99: number; max: number };
    };
  };
  const all = aggregateResult(runs, { url, connections });
  const sum = (pick: (run: RawRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const requests = sum((run) => run.totalCompletedRequests);
  const seconds = sum((run) => run.duration);
  return {
    url,
    connections,
    durationS: round(seconds, 2),
    requestsPerSecond: seconds > 0 ? round(requests / seconds) : 0,
    latencyP50Ms: all.latency.p50,
    latencyP99Ms: all.latency.p99,
    latencyMaxMs: all.latency.max,
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
