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

/** One autocannon run (no accept-encoding, so neither side compresses), after a short warm-up. */
export async function load(url: string, connections: number, durationS: number, warmupS = 2): Promise<LoadResult> {
  if (warmupS > 0) await autocannon({ url, connections, duration: warmupS });
  const result = await autocannon({ url, connections, duration: durationS });
  return {
    url,
    connections,
    durationS,
    requestsPerSecond: round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
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
  for (const url of Object.keys(bodies)) {
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
