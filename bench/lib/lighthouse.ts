import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './bundles';

/** A page to measure, in a language of its own (the language switch's cookie) or the browser's English. */
export interface LighthouseTarget {
  url: string;
  lang?: 'en' | 'ar';
}

export interface LighthousePage {
  url: string;
  path: string;
  lang: 'en' | 'ar';
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  lcpMs: number | null;
  /** Every run's LCP and TBT; the page's figures are those of the median run (Lighthouse's computeMedianRun). */
  allLcpMs: Array<number | null>;
  allTbtMs: Array<number | null>;
  cls: number | null;
  tbtMs: number | null;
  fcpMs: number | null;
  speedIndexMs: number | null;
  runtimeError: string | undefined;
  /**
   * Runs Lighthouse could not record and that were run again (e.g. NO_NAVSTART, whose own advice is 'Please
   * run Lighthouse again'): one entry per discarded run, its error code.
   */
  discardedRuns: string[];
  /** Audits that cost points: id, score and the category they belong to. */
  failing: Array<{
    id: string;
    category: string;
    score: number | null;
    title: string;
    displayValue?: string;
    /** The first offending item (URL, node snippet or message), shortened. */
    example?: string;
  }>;
  lcpElement: string | undefined;
  /** Every run's main-thread blocking split into the thread's own work and its waiting (see blockingSplit). */
  allBlocking: Array<BlockingSplit | null>;
}

/**
 * A load's main-thread tasks (the page's renderer, from the navigation on), each counted as Lighthouse's mobile
 * preset counts a task: its length × the CPU slowdown (4) − 50 ms, summed over the tasks. Once by wall-clock length,
 * which is what Lighthouse's simulation scales, and once by the CPU time the thread ran in the task (the trace's
 * thread clock). The difference is time the thread was not running inside a task: waiting for a core (two cores
 * here, shared with the browser's other processes) or for another process (on Linux a new font size or weight is a
 * synchronous call to the browser's font service). It is not TBT (no FCP-to-TTI window, no simulated timeline): it
 * says how much of a page's blocking time is work and how much is waiting.
 */
export interface BlockingSplit {
  wallMs: number;
  cpuMs: number;
  /** Tasks over 50 ms once multiplied, by wall-clock length. */
  longTasks: number;
}

export interface LighthouseRun {
  version: string;
  formFactor: string;
  throttling: string;
  pages: LighthousePage[];
}

interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
  details?: { items?: Array<Record<string, unknown>> };
}
interface Lhr {
  lighthouseVersion: string;
  runtimeError?: { code: string; message: string };
  configSettings: { formFactor: string; throttlingMethod: string };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, Audit>;
  /** Ours, not Lighthouse's: read off the run's trace. */
  blocking?: BlockingSplit | null;
}
interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tdur?: number;
  ts: number;
}
type LighthouseFn = (
  url: string,
  flags: Record<string, unknown>,
) => Promise<{ lhr: Lhr; artifacts?: { Trace?: { traceEvents: TraceEvent[] } } } | undefined>;
interface TraceProcessorClass {
  processTrace(trace: { traceEvents: TraceEvent[] }): {
    mainThreadEvents: TraceEvent[];
    timestamps: { timeOrigin: number };
  };
  isScheduleableTask(event: TraceEvent): boolean;
}
type MedianRunFn = (runs: Lhr[]) => Lhr;

const score = (lhr: Lhr, id: string) => {
  const value = lhr.categories[id]?.score;
  return value === null || value === undefined ? null : Math.round(value * 100);
};
/** An audit's value, rounded up: a figure that meets a target as shown meets it as measured. */
const numeric = (lhr: Lhr, id: string, digits = 0) => {
  const value = lhr.audits[id]?.numericValue;
  if (value === undefined) return null;
  const f = 10 ** digits;
  return Math.ceil(value * f) / f;
};

/**
 * Runs Lighthouse's default (mobile) configuration on each page with the system Chromium, `runsPerPage`
 * times. Lighthouse's own advice for variable machines: five runs, and the median run is the result, chosen
 * as Lighthouse itself does (`computeMedianRun`: the run closest to the median FCP and time to interactive).
 * The pages take turns (round 1 of every page, then round 2, ...): the machine's speed changes from minute
 * to minute, and pages compared with each other should meet the same minutes.
 */
export async function runLighthouse(
  targets: LighthouseTarget[],
  perRunTimeoutMs: number,
  runsPerPage = 5,
): Promise<LighthouseRun> {
  const lighthouse = ((await import('lighthouse')) as unknown as { default: LighthouseFn }).default;
  const { computeMedianRun } = (await import('lighthouse/core/lib/median-run.js')) as { computeMedianRun: MedianRunFn };
  const chromeLauncher = await import('chrome-launcher');
  const traceProcessor = (
    (await import('lighthouse/core/lib/tracehouse/trace-processor.js')) as unknown as {
      TraceProcessor: TraceProcessorClass;
    }
  ).TraceProcessor;
  const runs = new Map<LighthouseTarget, Lhr[]>(targets.map((target) => [target, []]));
  const discarded = new Map<LighthouseTarget, string[]>(targets.map((target) => [target, []]));
  for (let i = 0; i < runsPerPage; i++) {
    for (const target of targets) {
      // A run Lighthouse could not record (its trace had no navigation start, say) measured nothing about the
      // page: it is run again, up to twice, and counted as discarded. A run that still fails is kept, so the
      // page reports the error instead of a median of fewer runs.
      for (let attempt = 0; ; attempt++) {
        const lhr = await runOnce(lighthouse, chromeLauncher, traceProcessor, target, perRunTimeoutMs);
        if (!lhr.runtimeError || attempt === MAX_RETRIES) {
          runs.get(target)?.push(lhr);
          break;
        }
        discarded.get(target)?.push(lhr.runtimeError.code);
      }
    }
  }
  const pages = targets.map((target) =>
    summarise(target, runs.get(target) ?? [], discarded.get(target) ?? [], computeMedianRun),
  );
  const first = [...runs.values()][0]?.[0];
  return {
    version: first?.lighthouseVersion ?? 'unknown',
    formFactor: first?.configSettings.formFactor ?? 'unknown',
    throttling: first?.configSettings.throttlingMethod ?? 'unknown',
    pages,
  };
}

/** How many times a run Lighthouse could not record is run again. */
const MAX_RETRIES = 2;

/**
 * One Lighthouse run in a new browser, as Lighthouse's command line does: the runs stay independent. In one
 * shared browser, whichever of two builds came second in each round measured the lower TBT, in each of three
 * A/B tests (pages of one site, 127.0.0.1 whatever the port, may share a warmed-up renderer).
 */
async function runOnce(
  lighthouse: LighthouseFn,
  chromeLauncher: typeof import('chrome-launcher'),
  traceProcessor: TraceProcessorClass,
  { url, lang }: LighthouseTarget,
  perRunTimeoutMs: number,
): Promise<Lhr> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    logLevel: 'silent',
  });
  try {
    const work = lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      // The language switch's cookie, on the document and every request after it.
      ...(lang ? { extraHeaders: { Cookie: `lang=${lang}` } } : {}),
    });
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), perRunTimeoutMs));
    const result = await Promise.race([work, timeout]);
    if (!result) throw new Error(`Lighthouse did not finish ${url} within ${perRunTimeoutMs / 1000} s`);
    const trace = result.artifacts?.Trace;
    result.lhr.blocking = trace && !result.lhr.runtimeError ? blockingSplit(traceProcessor, trace) : null;
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

/** The mobile preset's CPU slowdown, which Lighthouse's simulation applies to every main-thread task. */
const CPU_SLOWDOWN = 4;
const LONG_TASK_MS = 50;

/** See BlockingSplit. A trace Lighthouse cannot split into the page's threads gives null. */
export function blockingSplit(
  traceProcessor: TraceProcessorClass,
  trace: { traceEvents: TraceEvent[] },
): BlockingSplit | null {
  let processed: ReturnType<TraceProcessorClass['processTrace']>;
  try {
    processed = traceProcessor.processTrace(trace);
  } catch {
    return null;
  }
  const over = (micros: number) => Math.max(0, (micros / 1000) * CPU_SLOWDOWN - LONG_TASK_MS);
  const split = { wallMs: 0, cpuMs: 0, longTasks: 0 };
  // Top-level tasks only: a task nested in another (rare; Chromium's own bug, lighthouse#15896) is skipped.
  let end = Number.NEGATIVE_INFINITY;
  for (const event of processed.mainThreadEvents) {
    if (event.ph !== 'X' || !event.dur || !traceProcessor.isScheduleableTask(event)) continue;
    if (event.ts < processed.timestamps.timeOrigin || event.ts < end) continue;
    end = event.ts + event.dur;
    split.wallMs += over(event.dur);
    split.cpuMs += over(event.tdur ?? event.dur);
    if (over(event.dur) > 0) split.longTasks++;
  }
  return { wallMs: Math.round(split.wallMs), cpuMs: Math.round(split.cpuMs), longTasks: split.longTasks };
}

function summarise(
  { url, lang }: LighthouseTarget,
  runs: Lhr[],
  discardedRuns: string[],
  computeMedianRun: MedianRunFn,
): LighthousePage {
  const failed = runs.find((run) => run.runtimeError);
  const lhr = failed ?? computeMedianRun(runs);
  const failing: LighthousePage['failing'] = [];
  for (const [category, { auditRefs }] of Object.entries(lhr.categories)) {
    for (const ref of auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative') continue;
      if (audit.scoreDisplayMode === 'manual') continue;
      if (audit.score !== null && audit.score >= 0.9) continue;
      if (audit.score === null && audit.scoreDisplayMode !== 'error') continue;
      failing.push({
        id: audit.id,
        category,
        score: audit.score,
        title: audit.title,
        displayValue: audit.displayValue,
        example: exampleOf(audit.details?.items?.[0]),
      });
    }
  }
  const lcpItem = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0];
  return {
    url,
    path: new URL(url).pathname,
    lang: lang ?? 'en',
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    allLcpMs: runs.map((run) => numeric(run, 'largest-contentful-paint')),
    allTbtMs: runs.map((run) => numeric(run, 'total-blocking-time')),
    cls: numeric(lhr, 'cumulative-layout-shift', 3),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    speedIndexMs: numeric(lhr, 'speed-index'),
    runtimeError: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : undefined,
    discardedRuns,
    failing,
    lcpElement: describeLcp(lcpItem),
    allBlocking: runs.map((run) => run.blocking ?? null),
  };
}

/**
 * The floor of this machine: the smallest page a browser can be asked to show (a heading and a sentence;
 * no script, no stylesheet, no image), served from loopback by this process. What Lighthouse reports for
 * it is what the browser's own work costs here (starting the document, its first layout and paint),
 * multiplied like everything else by the mobile preset's 4× CPU slowdown; no page of ours can score below it.
 */
export const TRIVIAL_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Trivial page</title><meta name="description" content="The smallest page: the floor of this machine.">' +
  '</head><body><h1>Hello</h1><p>A trivial page: one heading and one sentence.</p></body></html>';

/**
 * Headers that describe one answer's body or connection rather than the document's policies: the trivial page
 * sets its own.
 */
const NOT_A_POLICY = new Set([
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'etag',
  'keep-alive',
  'last-modified',
  'link',
  'set-cookie',
  'transfer-encoding',
  'vary',
]);

/**
 * The policies a page of the app is sent with (its security headers: content security policy, the opener
 * policy, ...), for the floor to be sent with the same. They are part of what the browser does for any page
 * of ours before a byte of it is read: `Cross-Origin-Opener-Policy: same-origin` puts the page in a browsing
 * context group of its own, in a renderer process of its own, which alone took the trivial page from a TBT of
 * 0 ms (8 runs of 8 at most 10 ms) to 0-140 ms (median ~55) on 2026-11-29 (docs/performance-notes.md).
 */
export async function documentPolicies(url: string): Promise<Record<string, string>> {
  const response = await fetch(url);
  await response.arrayBuffer();
  const policies: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NOT_A_POLICY.has(name)) policies[name] = value;
  });
  return policies;
}

/** Serves the trivial page from loopback, with the given policy headers (none: the bare floor). */
export async function serveTrivialPage(
  policies: Record<string, string> = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    res.writeHead(200, { ...policies, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(TRIVIAL_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function exampleOf(item: Record<string, unknown> | undefined): string | undefined {
  if (!item) return undefined;
  const text = JSON.stringify(item);
  const pick = text.match(/"(?:snippet|url|description|source|issueType|label)":"((?:[^"\\]|\\.)*)"/);
  return (pick?.[1] ?? text).slice(0, 200);
}

function describeLcp(item: unknown): string | undefined {
  // The LCP element audit nests a table; find the first node snippet anywhere inside it.
  const seen = JSON.stringify(item ?? null).match(/"snippet":"((?:[^"\\]|\\.)*)"/);
  return seen?.[1]?.slice(0, 160);
}
