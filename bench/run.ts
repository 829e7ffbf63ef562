/**
 * `npm run bench`: starts the production build on a fresh data folder, measures every row of the
 * performance budget beside a ceiling measured in the same run on the same machine, prints a table
 * and writes bench/results/latest.json. Options: --duration=S (seconds per load run, default 10),
 * --only=1,2,4 (rows to run; the start-up row always runs because every other row needs the app; row 7, tickets:
 * check-ins/s and the cost of issuing tickets at payment, bench/check-in.ts; row 8: returns during an on-sale, the
 * waitlist offered every returned ticket, bench/returns.ts; row 9: the organiser's dashboard of one event with
 * 100,000 bookings, 10 admins, and the dashboard page's JS, bench/dashboard.ts),
 * --cpu-prof (write bench/results/app.cpuprofile of the app and a summary in latest.json).
 */

import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheckInBench } from './check-in';
import { runDashboardBench } from './dashboard';
import { buildHelloWorld, type HelloWorld, measurePages, type PageLoad } from './lib/bundles';
import { webComposition } from './lib/composition';
import {
  documentPolicies,
  type LighthousePage,
  type LighthouseRun,
  runLighthouse,
  serveTrivialPage,
} from './lib/lighthouse';
import { type CeilingServer, fetchJsonBody, type LoadResult, loadInTurns, round, startCeiling } from './lib/load';
import {
  type AppProcess,
  freePort,
  postgresMemory,
  rssKb,
  sleep,
  startApp,
  stopApp,
  stopEverything,
  track,
  withMemorySampling,
} from './lib/processes';
import { summariseProfile } from './lib/profile';
import { type BenchRow, formatTable, ratioOf } from './lib/report';
import { holdLiveClients, type SseResult } from './lib/sse';
import { runReturnsBench } from './returns';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(benchDir);
const resultsDir = path.join(benchDir, 'results');
const RUN_STARTED = Date.now();
/** The whole run must end within 15 minutes; phases are cut short so that cleanup fits too. */
const RUN_BUDGET_MS = 14.5 * 60_000;
const ADMIN = { email: 'bench-admin@eventry.test', password: 'BenchAdmin123' };
/** Home JS: 100 KB gzip with 5 KB to spare (issue 39), so that the next feature does not break the budget. */
const HOME_JS_MAX_BYTES = 95 * 1024;
const HOME_JS_TARGET = '≤ 95 KB (100 with 5 to spare)';
/** A typical React + Firebase app of the kind the spec describes (gzip KB of JS). */
const REACT_FIREBASE_BASELINE_KB = 180;

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key ?? '', value ?? 'true'] as const;
  }),
);
const DURATION_S = Number(args.get('duration') ?? 10);
const only = args.get('only')?.split(',').map(Number);
/** --cpu-prof: profile the app (second start onwards) and summarise where its CPU time went. */
const CPU_PROF = args.has('cpu-prof');
const wants = (row: number) => !only || only.includes(row);

const rows: BenchRow[] = [];
const notes: string[] = [];
const figures: Record<string, unknown> = {};

const remaining = () => RUN_BUDGET_MS - (Date.now() - RUN_STARTED);
const kb = (bytes: number) => round(bytes / 1024, 1);
const mb = (kbValue: number | undefined) => (kbValue === undefined ? null : round(kbValue / 1024, 1));
const log = (message: string) =>
  process.stderr.write(`[bench ${((Date.now() - RUN_STARTED) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);

function notAvailable(row: number, measurement: string, why: string, target: string): void {
  rows.push({ row, measurement, ours: 'not available', ceiling: null, ratio: null, target, pass: null, note: why });
  notes.push(`row ${row} ${measurement}: ${why}`);
}

/** Runs one phase with its own time limit; a failure is recorded and the run goes on. */
async function phase<T>(name: string, limitMs: number, work: () => Promise<T>): Promise<T | undefined> {
  const allowed = Math.min(limitMs, remaining() - 45_000);
  if (allowed < 5_000) {
    notes.push(`${name}: skipped, the 15-minute budget is used up`);
    log(`${name}: skipped (time budget)`);
    return undefined;
  }
  log(`${name} (up to ${Math.round(allowed / 1000)} s)`);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${Math.round(allowed / 1000)} s`)), allowed);
      }),
    ]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    notes.push(`${name}: ${message.split('\n')[0]}`);
    log(`${name} failed: ${message}`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function machineInfo() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryMb: Math.round(os.totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((v) => round(v, 2)),
  };
}

// ---------------------------------------------------------------------------------------------- rows

async function startupRow(appRoot: string, dataDir: string, logFile: string): Promise<AppProcess> {
  const port = await freePort();
  const env = { dataDir, port, admin: ADMIN, logFile };
  const first = await startApp(appRoot, env, 120_000);
  log(`started on an empty data folder in ${Math.round(first.startupMs)} ms`);
  await sleep(1000);
  const stopMs = await stopApp(first);
  const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(path.dirname(dataDir), 'profile')}`] : [];
  const second = await startApp(appRoot, { ...env, port: await freePort(), nodeArgs }, 60_000);
  log(`started on existing data in ${Math.round(second.startupMs)} ms`);
  figures.startup = {
    emptyMs: Math.round(first.startupMs),
    existingMs: Math.round(second.startupMs),
    stopMs: Math.round(stopMs),
    emptyMilestones: first.milestones,
    existingMilestones: second.milestones,
  };
  rows.push({
    row: 6,
    measurement: 'start-up to first /api/health 200, empty DATA_DIR',
    ours: round(first.startupMs / 1000, 2),
    ceiling: null,
    ratio: null,
    target: '≤ 5 s',
    pass: first.startupMs <= 5000,
    unit: 's',
    note: 'node dist/server/main.js (npm start adds the build check); includes initdb, migrations, demo seed',
  });
  rows.push({
    row: 6,
    measurement: 'start-up to first /api/health 200, existing data',
    ours: round(second.startupMs / 1000, 2),
    ceiling: null,
    ratio: null,
    target: '≤ 2 s',
    pass: second.startupMs <= 2000,
    unit: 's',
  });
  return second;
}

function idleMemoryRows(app: AppProcess) {
  const appKb = rssKb(app.pid);
  const db = postgresMemory(app.dataDir);
  figures.memoryIdle = { appRssKb: appKb, db };
  rows.push({
    row: 6,
    measurement: 'app RSS, idle',
    ours: mb(appKb),
    ceiling: null,
    ratio: null,
    target: '≤ 150 MB',
    pass: appKb === undefined ? null : appKb / 1024 <= 150,
    unit: 'MB',
  });
  rows.push({
    row: 6,
    measurement: `database RSS, idle (${db?.processes ?? 0} processes; PSS ${mb(db?.pssKb) ?? '—'} MB)`,
    ours: mb(db?.rssKb),
    ceiling: null,
    ratio: null,
    target: '—',
    pass: null,
    unit: 'MB',
    note: 'RSS counts shared buffers once per process; PSS splits them',
  });
}

interface ApiTargets {
  list: Array<{ label: string; url: string }>;
  eventId: string | undefined;
}

async function discoverApi(app: AppProcess): Promise<{ bodies: Record<string, string>; targets: ApiTargets }> {
  const list = [
    { label: 'GET /api/events (page 1)', url: '/api/events' },
    { label: 'GET /api/events?category=music', url: '/api/events?category=music' },
    { label: 'GET /api/events?q=ca (title search)', url: '/api/events?q=ca' },
  ];
  const bodies: Record<string, string> = {};
  for (const { url } of list) {
    const body = await fetchJsonBody(app, url);
    if (body !== undefined) bodies[url] = body;
  }
  let eventId: string | undefined;
  const first = bodies['/api/events'];
  if (first) {
    try {
      eventId = (JSON.parse(first) as { items?: Array<{ id?: string }> }).items?.[0]?.id;
    } catch {
      eventId = undefined;
    }
  }
  if (eventId) {
    const body = await fetchJsonBody(app, `/api/events/${eventId}`);
    if (body !== undefined) bodies[`/api/events/${eventId}`] = body;
  }
  figures.responseBytes = Object.fromEntries(
    Object.entries(bodies).map(([url, body]) => [url, Buffer.byteLength(body)]),
  );
  return { bodies, targets: { list, eventId } };
}

function loadRows(row: number, label: string, ours: LoadResult, ceiling: LoadResult, p99Target: boolean) {
  const clean = ours.non2xx === 0 && ours.errors === 0 && ours.timeouts === 0;
  const ratio = ratioOf(ours.requestsPerSecond, ceiling.requestsPerSecond);
  rows.push({
    row,
    measurement: `${label} req/s @${ours.connections}`,
    ours: Math.round(ours.requestsPerSecond),
    ceiling: Math.round(ceiling.requestsPerSecond),
    ratio,
    target: '≥ 70%',
    // From the unrounded rates: a ratio shown as 70% may be 69.96%.
    pass: clean && ceiling.requestsPerSecond > 0 && ours.requestsPerSecond / ceiling.requestsPerSecond >= 0.7,
    note: clean ? undefined : `non-2xx ${ours.non2xx}, errors ${ours.errors}, timeouts ${ours.timeouts}`,
  });
  rows.push({
    row,
    measurement: `${label} p99 latency`,
    ours: ours.latencyP99Ms,
    ceiling: ceiling.latencyP99Ms,
    ratio: ratioOf(ours.latencyP99Ms, ceiling.latencyP99Ms),
    // Issue 39: within half again the bare route's p99 (issue 8's 20 ms still holds for the lists).
    target: p99Target ? '≤ 150%, ≤ 20 ms' : '≤ 150%',
    pass:
      clean &&
      ceiling.latencyP99Ms > 0 &&
      ours.latencyP99Ms <= 1.5 * ceiling.latencyP99Ms &&
      (!p99Target || ours.latencyP99Ms <= 20),
    unit: 'ms',
  });
}

async function apiRows(
  app: AppProcess,
  ceiling: CeilingServer | undefined,
  bodies: Record<string, string>,
  targets: ApiTargets,
) {
  const results: Record<string, { ours: LoadResult; ceiling: LoadResult }> = {};
  const measured = await withMemorySampling(app.pid, app.dataDir, async () => {
    for (const { label, url } of targets.list) {
      if (!bodies[url] || !ceiling) {
        notAvailable(1, label, `${url} does not answer 200 JSON yet`, '≥ 70%; p99 ≤ 150%, ≤ 20 ms');
        continue;
      }
      const { ours, ceiling: top } = await loadInTurns(
        `${app.baseUrl}${url}`,
        `${ceiling.baseUrl}${url}`,
        50,
        DURATION_S,
      );
      results[url] = { ours, ceiling: top };
      log(`${label}: ${ours.requestsPerSecond} req/s (ceiling ${top.requestsPerSecond}), p99 ${ours.latencyP99Ms} ms`);
      loadRows(1, label, ours, top, true);
    }
  });
  figures.api = results;
  figures.memoryUnderLoad = {
    peakAppRssKb: measured.peakAppRssKb,
    peakDbRssKb: measured.peakDbRssKb,
    peakDbPssKb: measured.peakDbPssKb,
  };
  if (Object.keys(results).length > 0) {
    rows.push({
      row: 6,
      measurement: 'app RSS, peak under load 1',
      ours: mb(measured.peakAppRssKb),
      ceiling: null,
      ratio: null,
      target: '—',
      pass: null,
      unit: 'MB',
    });
    rows.push({
      row: 6,
      measurement: `database RSS, peak under load 1 (PSS ${mb(measured.peakDbPssKb)} MB)`,
      ours: mb(measured.peakDbRssKb),
      ceiling: null,
      ratio: null,
      target: '—',
      pass: null,
      unit: 'MB',
    });
  }
}

async function detailRow(
  app: AppProcess,
  ceiling: CeilingServer | undefined,
  bodies: Record<string, string>,
  eventId?: string,
) {
  const url = eventId ? `/api/events/${eventId}` : undefined;
  if (!url || !bodies[url] || !ceiling) {
    notAvailable(
      2,
      'GET /api/events/:id',
      'no event id from /api/events, or /api/events/:id does not answer 200 JSON',
      '≥ 70%; p99 ≤ 150%',
    );
    return;
  }
  const { ours, ceiling: top } = await loadInTurns(`${app.baseUrl}${url}`, `${ceiling.baseUrl}${url}`, 50, DURATION_S);
  figures.apiDetail = { ours, ceiling: top };
  log(`GET /api/events/:id: ${ours.requestsPerSecond} req/s (ceiling ${top.requestsPerSecond})`);
  loadRows(2, 'GET /api/events/:id', ours, top, false);
}

async function liveRow(app: AppProcess) {
  const result: SseResult = await holdLiveClients(app.baseUrl, app.pid, 1000, 60_000);
  figures.live = result;
  if (result.connected === 0) {
    notAvailable(
      2,
      '/api/events/live clients held',
      `no stream opened (${result.firstFailure ?? 'no answer'})`,
      '1,000',
    );
    return;
  }
  log(`live clients: ${result.connected} held, ${result.kbPerClient} KB each`);
  rows.push({
    row: 2,
    measurement: '/api/events/live concurrent clients held',
    ours: result.connected,
    ceiling: null,
    ratio: null,
    target: '1,000',
    pass: result.connected >= 1000,
    note: result.failed ? `${result.failed} failed: ${result.firstFailure}` : undefined,
  });
  rows.push({
    row: 2,
    measurement: 'app memory per live client (RSS delta / clients)',
    ours: result.kbPerClient ?? null,
    ceiling: null,
    ratio: null,
    target: '≤ 50 KB',
    pass: result.kbPerClient === undefined ? null : result.kbPerClient <= 50 && result.connected >= 1000,
    unit: 'KB',
  });
}

async function pageRows(app: AppProcess, eventId: string | undefined, hello: HelloWorld | undefined) {
  const detailPath = `/event-details/${eventId ?? '00000000-0000-4000-8000-000000000000'}`;
  const pages: PageLoad[] = await measurePages(app.baseUrl, ['/', '/events-page/all', detailPath], 30_000);
  figures.pages = pages;
  const helloKb = hello ? kb(hello.jsGzipBytes) : null;
  // The same pages in Arabic: the JavaScript is the same files (the texts come in the HTML), and must stay so.
  const arabic: PageLoad[] = await measurePages(app.baseUrl, ['/', '/events-page/all', detailPath], 30_000, {
    lang: 'ar',
  });
  figures.pagesArabic = arabic;
  for (const page of arabic) {
    const label = page.path === detailPath ? '/event-details/:id' : page.path;
    const isHome = page.path === '/';
    log(`${label} in Arabic: JS ${kb(page.jsGzipBytes)} KB gzip in ${page.jsFiles} files`);
    rows.push({
      row: 4,
      measurement: `${label} initial JS in Arabic, gzip (${page.jsFiles} files)`,
      ours: kb(page.jsGzipBytes),
      ceiling: helloKb,
      ratio: ratioOf(kb(page.jsGzipBytes), helloKb),
      target: isHome ? HOME_JS_TARGET : '—',
      pass: isHome ? page.jsGzipBytes <= HOME_JS_MAX_BYTES : null,
      unit: 'KB',
      note: page.status !== 200 ? `page answered ${page.status}` : undefined,
    });
  }
  for (const page of pages) {
    const label = page.path === detailPath ? '/event-details/:id' : page.path;
    const jsKb = kb(page.jsGzipBytes);
    const isHome = page.path === '/';
    log(`${label}: JS ${jsKb} KB gzip in ${page.jsFiles} files, CSS ${kb(page.cssGzipBytes)} KB`);
    rows.push({
      row: 4,
      measurement: `${label} initial JS, gzip (${page.jsFiles} files)`,
      ours: jsKb,
      ceiling: helloKb,
      ratio: ratioOf(jsKb, helloKb),
      target: isHome ? HOME_JS_TARGET : '—',
      // In bytes: 95.0 KB as shown may be a few bytes over.
      pass: isHome ? page.jsGzipBytes <= HOME_JS_MAX_BYTES : null,
      unit: 'KB',
      note:
        page.status !== 200
          ? `page answered ${page.status}`
          : page.missingAssets.length
            ? `assets not answering 200: ${page.missingAssets.join(', ')}`
            : undefined,
    });
    rows.push({
      row: 4,
      measurement: `${label} initial JS+CSS gzip vs React+Firebase app`,
      ours: kb(page.jsGzipBytes + page.cssGzipBytes),
      ceiling: REACT_FIREBASE_BASELINE_KB,
      ratio: ratioOf(kb(page.jsGzipBytes + page.cssGzipBytes), REACT_FIREBASE_BASELINE_KB),
      target: '—',
      pass: null,
      unit: 'KB',
      note: `CSS ${kb(page.cssGzipBytes)} KB gzip`,
    });
  }
  // Code splitting: each route should load a chunk of its own on top of the shared entry.
  const sets = pages.map((p) => new Set(p.assets.filter((a) => a.kind === 'js').map((a) => a.url)));
  const shared = new Set(sets[0] ?? []);
  for (const set of sets.slice(1)) for (const url of shared) if (!set.has(url)) shared.delete(url);
  const ownChunks = sets.map((set) => [...set].filter((u) => !shared.has(u)).length);
  figures.codeSplit = {
    sharedJs: [...shared],
    routeOwnChunks: Object.fromEntries(pages.map((p, i) => [p.path, ownChunks[i]])),
  };
  rows.push({
    row: 4,
    measurement: 'code split per route (route-only JS chunks per page)',
    ours: ownChunks.join(' / '),
    ceiling: null,
    ratio: null,
    target: '≥ 1 each',
    pass: ownChunks.every((n) => n >= 1),
  });
}

async function lighthouseRows(app: AppProcess, eventId: string | undefined) {
  try {
    await import('lighthouse');
  } catch (error) {
    notAvailable(
      5,
      'Lighthouse',
      `the lighthouse package is not installed (${(error as Error).message.split('\n')[0]})`,
      'see issue',
    );
    return;
  }
  const detailPath = `/event-details/${eventId ?? '00000000-0000-4000-8000-000000000000'}`;
  const ourPaths = ['/', '/events-page/all', detailPath];
  // The machine's floor, in the same turns as our pages: a trivial page (no script, no stylesheet), sent with the
  // policies our pages are sent with, whose cost is the browser's (lib/lighthouse.ts documentPolicies). The bare
  // floor, without them, shows that cost.
  const trivial = await serveTrivialPage(await documentPolicies(`${app.baseUrl}/`));
  const bare = await serveTrivialPage();
  let lh: LighthouseRun;
  try {
    lh = await runLighthouse(
      [
        ...(['en', 'ar'] as const).flatMap((lang) => ourPaths.map((p) => ({ url: `${app.baseUrl}${p}`, lang }))),
        { url: trivial.url },
        { url: bare.url },
      ],
      90_000,
    );
  } finally {
    await Promise.all([trivial.close(), bare.close()]);
  }
  figures.lighthouse = lh;
  const floor = lh.pages.find((page) => page.url === trivial.url);
  const bareFloor = lh.pages.find((page) => page.url === bare.url);
  const floorScores = floor ? `${floor.performance ?? '?'}` : null;
  const floorTimes = floor ? `${floor.lcpMs ?? '?'} / ${floor.cls ?? '?'} / ${floor.tbtMs ?? '?'}` : null;
  // Issue 39: what a slow phone adds to the browser's own work. LCP within 1.6 × the floor's, TBT within the
  // floor's + 150 ms, measured in the same turns.
  const lcpMax = floor?.lcpMs ? Math.round(1.6 * floor.lcpMs) : null;
  const tbtMax = floor?.tbtMs !== null && floor?.tbtMs !== undefined ? floor.tbtMs + 150 : null;
  for (const page of lh.pages) {
    const isFloor = page === floor || page === bareFloor;
    const where = page.path === detailPath ? '/event-details/:id' : page.path;
    const floorLabel = page === floor ? 'floor' : "bare floor, without our pages' security headers";
    const label = isFloor ? `a trivial page (${floorLabel})` : `${where}${page.lang === 'ar' ? ' in Arabic' : ''}`;
    const scores = [page.performance, page.accessibility, page.bestPractices, page.seo];
    log(
      `Lighthouse ${label} (median of ${page.allLcpMs.length} runs${page.discardedRuns.length ? `, ${page.discardedRuns.length} more not recorded and run again (${page.discardedRuns.join(', ')})` : ''}; LCP ${page.allLcpMs.join(', ')} ms; TBT ${page.allTbtMs.join(', ')} ms; ${describeBlocking(page.allBlocking)}): ${scores.join(' / ')}, LCP ${page.lcpMs} ms, CLS ${page.cls}, TBT ${page.tbtMs} ms`,
    );
    if (isFloor) {
      rows.push({
        row: 5,
        measurement:
          page === floor
            ? "Lighthouse floor, a trivial page (one heading; no script, style or image; our pages' security headers): perf / LCP / TBT"
            : 'Lighthouse bare floor, the same page without those headers: perf / LCP / TBT',
        ours: `${page.performance ?? '?'} / ${page.lcpMs ?? '?'} ms / ${page.tbtMs ?? '?'} ms`,
        ceiling: null,
        ratio: null,
        target: '—',
        pass: null,
        note: [
          page === floor
            ? `what the browser's own start-up costs here, for a page with our policies; TBT of every run: ${page.allTbtMs.join(', ')} ms`
            : `what the browser's start-up costs without them (the opener policy's own process among them); TBT of every run: ${page.allTbtMs.join(', ')} ms`,
          medianBlocking(page.allBlocking),
        ]
          .filter(Boolean)
          .join('; '),
      });
      continue;
    }
    const [, a11y, bp, seo] = scores;
    rows.push({
      row: 5,
      measurement: `Lighthouse ${label}: perf / a11y / best pr. / SEO`,
      ours: scores.map((s) => s ?? '?').join(' / '),
      ceiling: floorScores,
      ratio: null,
      target: '— / 100 / 100 / 100',
      pass: page.runtimeError ? false : a11y === 100 && bp === 100 && seo === 100,
      note:
        page.runtimeError ??
        (page.failing.length ? `losing points: ${page.failing.map((f) => f.id).join(', ')}` : undefined),
    });
    rows.push({
      row: 5,
      measurement: `Lighthouse ${label}: LCP ms / CLS / TBT ms`,
      ours: `${page.lcpMs ?? '?'} / ${page.cls ?? '?'} / ${page.tbtMs ?? '?'}`,
      ceiling: floorTimes,
      ratio: ratioOf(page.lcpMs, floor?.lcpMs),
      target: `LCP ≤ 160% (${lcpMax ?? '?'}) / ≤ 0.02 / TBT ≤ floor + 150 (${tbtMax ?? '?'})`,
      pass:
        page.lcpMs !== null &&
        page.cls !== null &&
        page.tbtMs !== null &&
        lcpMax !== null &&
        tbtMax !== null &&
        page.lcpMs <= lcpMax &&
        page.cls <= 0.02 &&
        page.tbtMs <= tbtMax,
      note: [page.lcpElement ? `LCP element: ${page.lcpElement}` : undefined, medianBlocking(page.allBlocking)]
        .filter(Boolean)
        .join('; '),
    });
  }
}

/**
 * Each run's main-thread tasks counted as Lighthouse counts them, by wall-clock length and by the thread's CPU time
 * (lib/lighthouse.ts BlockingSplit): what of a page's blocking time is its work and what is waiting for a core or
 * another process.
 */
function describeBlocking(runs: LighthousePage['allBlocking']): string {
  const known = runs.filter((run) => run !== null);
  if (known.length === 0) return 'main thread not split';
  return `main thread ×4 − 50 ms by wall clock / by CPU time ${known.map((run) => `${run.wallMs}/${run.cpuMs}`).join(', ')} ms`;
}

/** The medians of describeBlocking's two figures over the page's runs, for the table. */
function medianBlocking(runs: LighthousePage['allBlocking']): string | undefined {
  const known = runs.filter((run) => run !== null);
  if (known.length === 0) return undefined;
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const wall = median(known.map((run) => run.wallMs));
  const cpu = median(known.map((run) => run.cpuMs));
  return `main-thread tasks ×4 − 50 ms, medians: ${wall} by wall clock, ${cpu} by CPU time`;
}

/** node-postgres settings for the app's embedded database (Unix socket in DATA_DIR/postgres). */
async function appDatabase(app: AppProcess): Promise<ReservationsBenchContext['database']> {
  const password = (await readFile(path.join(app.dataDir, '.postgres-password'), 'utf8')).trim();
  return { host: path.join(app.dataDir, 'postgres'), port: 5432, user: 'postgres', password, database: 'eventry' };
}

/**
 * Row 3 belongs to the bookings feature: bench/reservations.ts exports runReservationsBench(context).
 * It receives the running app and its database and returns table rows (BenchRow[], or { rows }) plus
 * whatever detail it wants kept in latest.json.
 */
export interface ReservationsBenchContext {
  baseUrl: string;
  dataDir: string;
  /** node-postgres settings for the app's embedded database (Unix socket in DATA_DIR/postgres). */
  database: { host: string; port: number; user: string; password: string; database: string };
  admin: { email: string; password: string };
  concurrencies: number[];
  tickets: number;
  durationSeconds: number;
  /** Date.now() value by which the bench must have returned. */
  deadline: number;
  log: (message: string) => void;
}

async function reservationsChild(
  workDir: string,
  context: Omit<ReservationsBenchContext, 'log'>,
  limitMs: number,
): Promise<{ result?: unknown; error?: string }> {
  const id = context.concurrencies.join('-');
  const contextFile = path.join(workDir, `reservations-context-${id}.json`);
  const resultFile = path.join(workDir, `reservations-result-${id}.json`);
  writeFileSync(contextFile, JSON.stringify({ ...context, deadline: Date.now() + limitMs - 5000 }));
  const child = track(
    spawn(
      process.execPath,
      ['--import', 'tsx', path.join(benchDir, 'lib', 'reservations-child.ts'), contextFile, resultFile],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    ),
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) log(`reservations: ${line.slice(0, 300)}`);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timer = setTimeout(() => child.kill('SIGKILL'), Math.max(5000, limitMs - 1000));
  await exited;
  clearTimeout(timer);
  if (!existsSync(resultFile)) return { error: `did not finish within ${Math.round(limitMs / 1000)} s` };
  return JSON.parse(readFileSync(resultFile, 'utf8')) as { result?: unknown; error?: string };
}

async function reservationsRow(app: AppProcess, workDir: string, limitMs: number) {
  const file = path.join(benchDir, 'reservations.ts');
  if (!existsSync(file)) {
    notAvailable(
      3,
      'on-sale: reservations/s, paid/s, p50/p99, oversell',
      'not available yet: bench/reservations.ts does not exist',
      '≥ 1.0× hot row; p99 ≤ 60 ms; 0 oversell',
    );
    return;
  }
  const database = await appDatabase(app);
  const context: Omit<ReservationsBenchContext, 'log'> = {
    baseUrl: app.baseUrl,
    dataDir: app.dataDir,
    database,
    admin: ADMIN,
    concurrencies: [50, 200],
    tickets: 100_000,
    durationSeconds: DURATION_S,
    deadline: Date.now() + limitMs - 10_000,
  };
  // One process per concurrency, so that a hang at 200 buyers does not lose the 50-buyer figures.
  const results: unknown[] = [];
  const concurrencies = context.concurrencies;
  for (const [i, connections] of concurrencies.entries()) {
    const share = (context.deadline - Date.now()) / (concurrencies.length - i);
    const outcome = await reservationsChild(workDir, { ...context, concurrencies: [connections] }, share);
    if (outcome.error !== undefined) {
      notAvailable(3, `on-sale, ${connections} buyers`, `bench/reservations.ts: ${outcome.error}`, '≥ 1.0× hot row');
    } else results.push(outcome.result);
  }
  const result = { rows: results.flatMap((r) => (r as { rows?: unknown[] })?.rows ?? []), runs: results };
  figures.reservations = result;
  const returned = Array.isArray(result) ? result : (result as { rows?: unknown })?.rows;
  if (!Array.isArray(returned)) {
    notes.push('row 3: runReservationsBench returned no rows; its result is in figures.reservations');
    return;
  }
  for (const r of returned as Array<Partial<BenchRow>>) {
    const ours = r.ours ?? null;
    const ceiling = r.ceiling ?? null;
    rows.push({
      row: 3,
      measurement: r.measurement ?? 'on-sale',
      ours,
      ceiling,
      ratio: r.ratio ?? (typeof ours === 'number' && typeof ceiling === 'number' ? ratioOf(ours, ceiling) : null),
      target: r.target ?? '—',
      pass: r.pass ?? null,
      unit: r.unit,
      note: r.note,
    });
  }
}

/**
 * What each feature's bench module is given: the running app, its database, the load duration, a log, and a way to
 * start the bare-route ceiling with bodies of its own.
 */
async function featureContext(app: AppProcess, workDir: string, name: string) {
  return {
    baseUrl: app.baseUrl,
    dataDir: app.dataDir,
    database: await appDatabase(app),
    durationSeconds: DURATION_S,
    log: (message: string) => log(`${name}: ${message}`),
    startCeiling: (bodies: Record<string, string>) => startCeiling(benchDir, workDir, bodies),
  };
}

/** Keeps a feature bench's result in latest.json and its rows in the table. */
function keepRows(row: number, key: string, result: { rows: Array<Omit<BenchRow, 'row'>> }) {
  figures[key] = result;
  for (const r of result.rows) rows.push({ row, ...r });
}

/** Row 7 (issue 33): check-ins/s beside the bare route, and paid/s with and without tickets issued (bench/check-in.ts). */
async function checkInRows(app: AppProcess, workDir: string) {
  keepRows(7, 'checkIn', await runCheckInBench({ ...(await featureContext(app, workDir, 'check-in')), scanners: 50 }));
}

async function returnsRows(app: AppProcess, workDir: string) {
  keepRows(8, 'returns', await runReturnsBench({ ...(await featureContext(app, workDir, 'returns')), buyers: 200 }));
}

/** Row 9 (issue 37): the dashboard of one event with 100,000 bookings at 10 admins beside the bare route (bench/dashboard.ts). */
async function dashboardRows(app: AppProcess, workDir: string) {
  keepRows(
    9,
    'dashboard',
    await runDashboardBench({ ...(await featureContext(app, workDir, 'dashboard')), admins: 10 }),
  );
}

/**
 * Other people rebuild dist/ while a run is going (the hashed asset names change and pages break), so
 * the app runs from a private copy: package.json, dist/, the migrations, and a link to node_modules.
 */
function snapshotBuild(workDir: string): string {
  const appRoot = path.join(workDir, 'app');
  mkdirSync(path.join(appRoot, 'server', 'db'), { recursive: true });
  cpSync(path.join(root, 'package.json'), path.join(appRoot, 'package.json'));
  cpSync(path.join(root, 'dist'), path.join(appRoot, 'dist'), { recursive: true });
  cpSync(path.join(root, 'server', 'db', 'migrations'), path.join(appRoot, 'server', 'db', 'migrations'), {
    recursive: true,
  });
  // The database functions each feature keeps beside it (server/db/migrate.ts repeatableFiles).
  for (const feature of readdirSync(path.join(root, 'server', 'features'))) {
    const sqlDir = path.join('server', 'features', feature, 'sql');
    if (existsSync(path.join(root, sqlDir)))
      cpSync(path.join(root, sqlDir), path.join(appRoot, sqlDir), { recursive: true });
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(appRoot, 'node_modules'), 'dir');
  const stamp = path.join(appRoot, 'dist', '.build-stamp');
  figures.build = { builtAt: existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : 'unknown' };
  return appRoot;
}

function keepProfile(dir: string): void {
  const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) : undefined;
  if (!file) {
    notes.push('--cpu-prof: the app wrote no profile');
    return;
  }
  cpSync(path.join(dir, file), path.join(resultsDir, 'app.cpuprofile'));
  figures.cpuProfile = summariseProfile(path.join(dir, file));
  notes.push('CPU profile of the app: bench/results/app.cpuprofile (summary in figures.cpuProfile)');
}

// ---------------------------------------------------------------------------------------------- main

async function main(): Promise<number> {
  if (!existsSync(path.join(root, 'dist/server/main.js')))
    throw new Error('dist/server/main.js is missing: run npm run build');
  mkdirSync(resultsDir, { recursive: true });
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'eventry-bench-'));
  const dataDir = path.join(workDir, 'data');
  const logFile = path.join(resultsDir, 'app.log');
  writeFileSync(logFile, '');
  figures.machine = machineInfo();
  log(`work folder ${workDir}; ${DURATION_S} s per load run`);

  let app: AppProcess | undefined;
  let ceiling: CeilingServer | undefined;
  try {
    const appRoot = snapshotBuild(workDir);
    app = await phase('row 6: start-up', 200_000, () => startupRow(appRoot, dataDir, logFile));
    if (!app) throw new Error('the app did not start; see bench/results/app.log');
    const running = app;
    await sleep(3000); // let start-up work (archiving, mail jobs) settle before the idle reading
    idleMemoryRows(running);
    // Live clients first, on a heap that no load run has filled yet: afterwards the collector may give back
    // more memory during the hold than the clients take, and the figure per client means nothing.
    if (wants(2)) await phase('row 2: live clients', 90_000, () => liveRow(running));

    const discovered = await phase('discover API bodies', 20_000, () => discoverApi(running));
    const bodies = discovered?.bodies ?? {};
    const targets = discovered?.targets ?? { list: [], eventId: undefined };
    if (Object.keys(bodies).length > 0 && (wants(1) || wants(2))) {
      ceiling = await phase('start the bare Fastify ceiling', 20_000, () => startCeiling(benchDir, workDir, bodies));
    }

    if (wants(1)) await phase('row 1: catalogue lists', 120_000, () => apiRows(running, ceiling, bodies, targets));
    if (wants(2)) {
      await phase('row 2: event detail', 60_000, () => detailRow(running, ceiling, bodies, targets.eventId));
    }
    await ceiling?.stop();
    ceiling = undefined;

    if (wants(4)) {
      const hello = await phase('row 4: React hello-world ceiling (Vite build)', 90_000, () =>
        buildHelloWorld(root, 85_000),
      );
      figures.helloWorld = hello;
      await phase('row 4: initial load bytes', 90_000, () => pageRows(running, targets.eventId, hello));
      figures.bundleComposition = await phase('row 4: what the chunks are made of (in-memory Vite build)', 90_000, () =>
        webComposition(root),
      );
    }
    if (wants(5)) await phase('row 5: Lighthouse', 600_000, () => lighthouseRows(running, targets.eventId));
    if (wants(3)) {
      // Rows 7, 8 and 9 come after it: leave them what they take with some room (60, 12 and 60 s in the four
      // full runs of 2026-11-29 on 2 cores). Leaving them 120 + 60 + 90 s starved this row after Lighthouse
      // (45–77 s: its 50-buyer part skipped, in one run both) while the run ended 3.5 minutes inside its budget.
      const limit = Math.min(
        300_000,
        remaining() - 45_000 - (wants(7) ? 75_000 : 0) - (wants(8) ? 30_000 : 0) - (wants(9) ? 80_000 : 0),
      );
      await phase('row 3: on-sale reservations', limit + 5000, () => reservationsRow(running, workDir, limit));
    }
    // After row 3, whose figures the tickets and bookings made here would otherwise weigh on.
    if (wants(7)) await phase('row 7: check-in and issuing tickets', 180_000, () => checkInRows(running, workDir));
    if (wants(8)) await phase('row 8: returns during an on-sale', 120_000, () => returnsRows(running, workDir));
    if (wants(9)) await phase('row 9: dashboard of one event', 180_000, () => dashboardRows(running, workDir));
  } finally {
    await ceiling?.stop().catch(() => {});
    if (app) await stopApp(app).catch(() => {});
    await stopEverything();
    if (CPU_PROF) keepProfile(path.join(workDir, 'profile'));
    rmSync(workDir, { recursive: true, force: true });
  }

  rows.sort((a, b) => a.row - b.row);
  const table = formatTable(rows);
  const output = {
    timestamp: new Date().toISOString(),
    durationS: Math.round((Date.now() - RUN_STARTED) / 1000),
    loadSecondsPerRun: DURATION_S,
    machine: figures.machine,
    rows,
    notes,
    figures,
  };
  writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(output, null, 2)}\n`);
  writeFileSync(path.join(resultsDir, 'latest.md'), `${table}\n`);
  process.stdout.write(`\n${table}\n\n`);
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
  process.stdout.write(`\nwrote bench/results/latest.json in ${output.durationS} s\n`);
  return 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping the app, its database and the ceiling server\n`);
    void stopEverything().finally(() => process.exit(130));
  });
}

main()
  .then((code) => process.exit(code))
  .catch(async (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    await stopEverything();
    process.exit(1);
  });
