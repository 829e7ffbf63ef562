/**
 * Several processes on one PostgreSQL, proven (npm run test:hard). Three production processes share one
 * database (an embedded PostgreSQL started here, reached through DATABASE_URL as an external one would be)
 * behind a round-robin proxy, and an on-sale storm goes through the proxy:
 *   - zero oversell: capacity = available + held + sold for every event, every booking's tickets follow it;
 *   - every booking a client saw paid is still paid, also after one process is killed mid-storm (the proxy
 *     sends on to the others, which carry on);
 *   - a change made through one process reaches a live stream held by another within 1 s;
 *   - a cached event page is refreshed in every process within 1 s of a change;
 *   - signing out through one process ends the session in the others within 1 s;
 *   - each scheduled job runs once per period across the processes, not once in each: its runs are summed over
 *     the processes' /metrics (eventry_job_runs_total) from their start until just before the kill (65 s at
 *     least), and again from the kill to the end over the two left.
 * Figures: reservations a second through the proxy with one process, then with three, in the same run.
 *
 * Usage: tsx many-processes.ts [path of the server bundle, default dist/server/main.js].
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { addDays, todayIn } from '../../../contracts/dates';
import { startEmbeddedPostgres } from '../../db/embedded';
import { type CapacityParts, capacityAddsUp, capacityPartsQuery } from '../capacity-invariant';
import { TICKETS_NOT_FOLLOWING_BOOKINGS } from '../ticket-invariant';
import { freePort, log, sleep } from './scripts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The production server bundle (a private copy can be passed while others rebuild dist/). */
const MAIN = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/server/main.js'));
const METRICS_TOKEN = randomBytes(16).toString('hex');
const CLIENTS = 40;
const PHASE_MS = 8_000;
/** Tickets of the event that sells out while a process is killed. */
const CONTESTED = 600;
/** The least time the three processes run together before the kill, so that every job's period but the hourly
 * one comes round at least once after the start-up runs. */
const JOBS_WITH_THREE_MS = 65_000;
/** The least time the two left run after the kill, for the jobs of a few seconds' period. */
const JOBS_WITH_TWO_MS = 6_000;

// --- the processes -------------------------------------------------------------------------------------

interface Proc {
  port: number;
  child: ChildProcess;
  exited: Promise<unknown>;
}

async function startProcess(env: Record<string, string>, dir: string, index: number): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const file = createWriteStream(path.join(dir, `app-${index}.log`));
  child.stdout?.pipe(file);
  child.stderr?.pipe(file);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/ready`)).status === 200) break;
    } catch {
      // not yet
    }
    if (Date.now() - started > 90_000) throw new Error(`process ${index} was not ready in 90 s (see ${dir})`);
    await sleep(100);
  }
  return { port, child, exited };
}

// --- scheduled jobs, counted ----------------------------------------------------------------------------

/** A process's scheduled jobs from its /metrics: each one's period (ms) and its tries by outcome. */
interface JobTries {
  periods: Map<string, number>;
  tries: Map<string, Record<string, number>>;
}

async function jobTries(port: number): Promise<JobTries> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const out: JobTries = { periods: new Map(), tries: new Map() };
  for (const line of (await res.text()).split('\n')) {
    const sample = /^(eventry_job_runs_total|eventry_job_period_seconds)\{([^}]*)\} (\S+)$/.exec(line);
    if (!sample) continue;
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const job = labels.job as string;
    const value = Number(sample[3]);
    if (sample[1] === 'eventry_job_period_seconds') out.periods.set(job, value * 1000);
    else out.tries.set(job, { ...out.tries.get(job), [labels.outcome as string]: value });
  }
  return out;
}

/** The processes' counts at one moment, with the moments just before and after they were read. */
interface JobSnapshot {
  before: number;
  after: number;
  each: JobTries[];
}

async function snapshot(procs: Proc[]): Promise<JobSnapshot> {
  const before = Date.now();
  const each = await Promise.all(procs.map((p) => jobTries(p.port)));
  return { before, after: Date.now(), each };
}

/** A job's runs in a process (made there, failed included) and its other tries, since it started. */
function runsOf(tries: JobTries, job: string): { runs: number; busy: number; done: number } {
  const t = tries.tries.get(job) ?? {};
  return { runs: (t.ran ?? 0) + (t.failed ?? 0), busy: t.busy ?? 0, done: t.done ?? 0 };
}

/**
 * Whether each job ran once per period across the processes between two moments: `from` (counts of zero when
 * the processes had not started) and `to`, the same processes read twice. Once per period means, over a window
 * of W ms, at most ceil(W / period) + 1 runs (the periods the window touches). The job must not starve either,
 * but a period whose start finds the job still running (a long run, or mail delivery nudged by a new email) is
 * skipped, so at least half the periods is asked, and from the start one run (a process runs its jobs as it
 * starts). `started` is when the window's first run could come, at the latest.
 */
function oncePerPeriod(
  what: string,
  from: { before: number; after: number; each?: JobTries[] },
  to: JobSnapshot,
  names: string[],
  started = from.after,
): Array<[string, boolean, string]> {
  const periods = new Map(to.each.flatMap((t) => [...t.periods]));
  const out: Array<[string, boolean, string]> = [];
  for (const [job, period] of [...periods].sort((a, b) => a[1] - b[1])) {
    const each = to.each.map((t, i) => {
      const end = runsOf(t, job);
      const start = from.each ? runsOf(from.each[i] as JobTries, job) : { runs: 0, busy: 0, done: 0 };
      return { runs: end.runs - start.runs, busy: end.busy - start.busy, done: end.done - start.done };
    });
    const sum = (key: 'runs' | 'busy' | 'done') => each.reduce((n, e) => n + e[key], 0);
    const runs = sum('runs');
    const most = Math.ceil((to.after - from.before) / period) + 1;
    const least = Math.max(from.each ? 0 : 1, Math.floor((to.before - started) / period / 2));
    const perProcess = each.map((e, i) => `${names[i]} ${e.runs}`).join(', ');
    out.push([
      `${what}: ${job} (every ${period / 1000} s) ran once per period`,
      runs >= least && runs <= most,
      `${runs} runs in ${((to.before - from.after) / 1000).toFixed(1)} s, expected ${least} to ${most}; ${perProcess}; other tries found it done ${sum('done')}, running ${sum('busy')}`,
    ]);
  }
  return out;
}

// --- a round-robin proxy that skips a process that is gone ----------------------------------------------

function startProxy(backends: () => number[]): Promise<{ port: number; close(): void }> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const ports = backends();
      const attempt = (tries: number) => {
        const port = ports[next++ % ports.length] as number;
        const upstream = http.request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          // A process that is gone refuses the connection before it saw the request: the next one gets it.
          if (error.code === 'ECONNREFUSED' && tries < ports.length) attempt(tries + 1);
          else if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        upstream.end(body);
      };
      attempt(1);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as net.AddressInfo).port, close: () => server.close() }),
    );
  });
}

// --- clients -----------------------------------------------------------------------------------------------

async function call(
  port: number,
  method: string,
  url: string,
  options: { body?: unknown; cookie?: string; from?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; cookie?: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      // Each client its own address (the processes trust the proxy's X-Forwarded-For), as real buyers are.
      'x-forwarded-for': options.from ?? '10.0.0.1',
      origin: APP_ORIGIN,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text || '{}');
  } catch {
    // not JSON
  }
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { status: res.status, body, cookie: cookie || undefined };
}

let APP_ORIGIN = '';

async function signUp(port: number, tag: string, from: string): Promise<{ cookie: string; email: string }> {
  const email = `many-${tag}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await call(port, 'POST', '/api/auth/sign-up/email', {
    body: { firstName: 'Many', lastName: 'Processes', email, password: 'Secret123' },
    from,
  });
  if (res.status !== 200 || !res.cookie) throw new Error(`sign-up answered ${res.status}`);
  return { cookie: res.cookie, email };
}

const CARD = { cardNumber: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

interface Tally {
  reservations: number;
  soldOut: number;
  paid: Set<string>;
  errors5xx: number;
  failedRequests: number;
}

/** Buyers reserve and pay through the proxy for `ms`, or until the event has sold out (untilSoldOut). */
async function storm(
  proxyPort: number,
  cookies: string[],
  eventId: string,
  ms: number,
  untilSoldOut = false,
): Promise<Tally> {
  const tally: Tally = { reservations: 0, soldOut: 0, paid: new Set(), errors5xx: 0, failedRequests: 0 };
  const until = Date.now() + ms;
  await Promise.all(
    cookies.map(async (cookie) => {
      let soldOutInARow = 0;
      while (Date.now() < until && !(untilSoldOut && soldOutInARow >= 3)) {
        try {
          const quantity = 1 + Math.floor(Math.random() * 3);
          const held = await call(proxyPort, 'POST', '/api/bookings', { body: { eventId, quantity }, cookie });
          if (held.status === 502)
            tally.failedRequests++; // the proxy's: the process died with it
          else if (held.status >= 500) tally.errors5xx++;
          if (held.status === 409) {
            tally.soldOut++;
            soldOutInARow++;
          } else soldOutInARow = 0;
          if (held.status !== 201) continue;
          tally.reservations++;
          const bookingId = held.body.id as string;
          const paid = await call(proxyPort, 'POST', '/api/payments/simulated/confirm', {
            body: { bookingId, ...CARD },
            cookie,
          });
          if (paid.status === 502) tally.failedRequests++;
          else if (paid.status >= 500) tally.errors5xx++;
          if (paid.status === 200) tally.paid.add(bookingId);
        } catch {
          tally.failedRequests++;
          await sleep(50);
        }
      }
    }),
  );
  return tally;
}

// --- main ----------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'eventry-many-'));
  const database = await startEmbeddedPostgres({ dataDir: path.join(dir, 'db'), database: 'eventry' });
  const connection = database.connection;
  const url = `postgres://${connection.user}:${encodeURIComponent(String(connection.password))}@localhost/eventry?host=${encodeURIComponent(String(connection.host))}&port=${connection.port}`;
  const sql = new pg.Pool({ ...connection, max: 2 });
  const checks: Array<[string, boolean, string]> = [];
  const procs: Proc[] = [];
  let proxy: { port: number; close(): void } | undefined;
  try {
    let alive: number[] = [];
    const front = await startProxy(() => alive);
    proxy = front;
    APP_ORIGIN = `http://127.0.0.1:${front.port}`;
    const env = {
      DATABASE_URL: url,
      AUTH_SECRET: randomBytes(32).toString('base64'),
      TICKET_SIGNING_KEY: randomBytes(32).toString('base64'),
      APP_URL: APP_ORIGIN,
      SEED_DEMO: 'false',
      TRUST_PROXY: '127.0.0.1',
      METRICS_TOKEN,
    };
    const spawned = Date.now();
    let firstReady = 0;
    for (let i = 0; i < 3; i++) {
      procs.push(await startProcess({ ...env, DATA_DIR: path.join(dir, `app-${i}`) }, dir, i));
      firstReady ||= Date.now();
    }
    const [a, b, c] = procs as [Proc, Proc, Proc];
    log('three processes ready on one database');

    const today = todayIn('Africa/Cairo');
    const newEvent = async (title: string, capacity: number) =>
      (
        await sql.query<{ id: string }>(
          `INSERT INTO events (title, host, location, description, price_piasters, capacity, tickets_available,
                               start_date, end_date, event_date, start_time, end_time, image_url, category_id)
           VALUES ($1, 'Host', 'Cairo', 'Many processes, one on-sale.', 10000, $2, $2, $3, $4, $4, '19:00', '22:00',
                   '/uploads/eventImg/x.webp', 'music') RETURNING id`,
          [title, capacity, addDays(today, -1), addDays(today, 30)],
        )
      ).rows[0]?.id as string;

    alive = [a.port, b.port, c.port];
    const buyers: string[] = [];
    for (let i = 0; i < CLIENTS; i += 10) {
      buyers.push(
        ...(
          await Promise.all(Array.from({ length: 10 }, (_, j) => signUp(front.port, `${i + j}`, `10.1.${i}.${j + 1}`)))
        ).map((u) => u.cookie),
      );
    }

    // Figures: one process, then three, through the same proxy, each on an event of its own.
    alive = [a.port];
    const one = await storm(front.port, buyers, await newEvent('One process', 100_000), PHASE_MS);
    alive = [a.port, b.port, c.port];
    const three = await storm(front.port, buyers, await newEvent('Three processes', 100_000), PHASE_MS);
    const rate = (t: Tally) => ((t.reservations / PHASE_MS) * 1000).toFixed(0);
    log(`reservations/s through the proxy: 1 process ${rate(one)}, 3 processes ${rate(three)}`);

    const jobsWindowLeft = firstReady + JOBS_WITH_THREE_MS - Date.now();
    if (jobsWindowLeft > 0) {
      log(`${Math.round(jobsWindowLeft / 1000)} s more with three processes, for their scheduled jobs to be counted`);
      await sleep(jobsWindowLeft);
    }

    // The on-sale that sells out, with one process killed in the middle.
    const contested = await newEvent('Sold out across three', CONTESTED);
    const stormDone = storm(front.port, buyers, contested, 120_000, true);
    // Killed once a third is sold.
    for (;;) {
      const left = await sql.query<{ n: number }>('SELECT tickets_available AS n FROM events WHERE id = $1', [
        contested,
      ]);
      if ((left.rows[0]?.n ?? 0) <= (CONTESTED * 2) / 3) break;
      await sleep(100);
    }
    const beforeKill = await snapshot([a, b, c]);
    b.child.kill('SIGKILL');
    await b.exited;
    alive = [a.port, c.port];
    log('killed one process mid-storm');
    const afterKill = await snapshot([a, c]);
    const sellOut = await stormDone;
    const all = [one, three, sellOut];

    const counts = await sql.query<CapacityParts>(capacityPartsQuery());
    const broken = counts.rows.filter((r) => !capacityAddsUp(r));
    checks.push([
      'capacity = available + held + offered + sold, no event oversold',
      broken.length === 0,
      JSON.stringify(broken),
    ]);
    const mismatched = await sql.query(TICKETS_NOT_FOLLOWING_BOOKINGS);
    checks.push([
      'every booking has the tickets its status says',
      mismatched.rowCount === 0,
      JSON.stringify(mismatched.rows),
    ]);
    const seenPaid = all.flatMap((t) => [...t.paid]);
    const stillPaid = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bookings WHERE id = ANY($1::uuid[]) AND status = 'paid'`,
      [seenPaid],
    );
    checks.push([
      'every booking a client saw paid is paid, with one process killed mid-storm',
      stillPaid.rows[0]?.n === seenPaid.length,
      `${stillPaid.rows[0]?.n} of ${seenPaid.length}`,
    ]);
    const sold = counts.rows.find((r) => r.capacity === CONTESTED);
    checks.push([
      'the contested event sold out exactly',
      sold?.available === 0 && (sold?.sold ?? 0) + (sold?.held ?? 0) === CONTESTED,
      JSON.stringify(sold),
    ]);
    const fives = all.reduce((n, t) => n + t.errors5xx, 0);
    checks.push(['no 5xx through the proxy', fives === 0, `${fives}`]);

    // A change through one process reaches a live stream held by another.
    const liveEvent = await newEvent('Live across processes', 10);
    const live = new AbortController();
    const heard = new Promise<number>((resolve, reject) => {
      fetch(`http://127.0.0.1:${c.port}/api/events/live`, { signal: live.signal })
        .then(async (res) => {
          const reader = res.body?.getReader();
          const decoder = new TextDecoder();
          let text = '';
          for (;;) {
            const { value, done } = (await reader?.read()) ?? { done: true, value: undefined };
            if (done) break;
            text += decoder.decode(value);
            if (text.includes(`"${liveEvent}"`)) return resolve(Date.now());
          }
        })
        .catch(reject);
    });
    await sleep(300); // the stream is open
    const sent = Date.now();
    const reserved = await call(a.port, 'POST', '/api/bookings', {
      body: { eventId: liveEvent, quantity: 2 },
      cookie: buyers[0],
    });
    const arrived = await Promise.race([heard, sleep(5_000).then(() => Number.POSITIVE_INFINITY)]);
    live.abort();
    checks.push([
      'a reservation through one process reaches the live stream of another within 1 s',
      reserved.status === 201 && arrived - sent <= 1_000,
      `${arrived - sent} ms`,
    ]);

    // A cached event page is refreshed in every process.
    for (const p of [a, c]) await call(p.port, 'GET', `/api/events/${liveEvent}`);
    await sql.query(`UPDATE events SET title = 'Renamed across processes', version = version + 1 WHERE id = $1`, [
      liveEvent,
    ]);
    const renamedAt = Date.now();
    let fresh = 0;
    while (Date.now() - renamedAt < 2_000) {
      const titles = await Promise.all([a, c].map((p) => call(p.port, 'GET', `/api/events/${liveEvent}`)));
      if (titles.every((t) => t.body.title === 'Renamed across processes')) {
        fresh = Date.now() - renamedAt;
        break;
      }
      await sleep(50);
    }
    checks.push([
      'a cached event page is refreshed in every process within 1 s',
      fresh > 0 && fresh <= 1_000,
      `${fresh} ms`,
    ]);

    // Signing out through one process ends the session in the others.
    const user = await signUp(a.port, 'signout', '10.2.0.1');
    const me = () => call(c.port, 'GET', '/api/me', { cookie: user.cookie });
    const before = await me();
    await call(a.port, 'POST', '/api/auth/sign-out', { body: {}, cookie: user.cookie });
    const outAt = Date.now();
    let ended = 0;
    while (Date.now() - outAt < 2_000) {
      const after = await me();
      if (after.status === 401 || after.body.email === undefined) {
        ended = Date.now() - outAt;
        break;
      }
      await sleep(50);
    }
    checks.push([
      'signing out through one process ends the session in another within 1 s',
      before.body.email === user.email && ended > 0 && ended <= 1_000,
      `${ended} ms`,
    ]);

    // Each scheduled job once per period: from the start to the kill over the three, from the kill on over the two.
    await sleep(afterKill.after + JOBS_WITH_TWO_MS - Date.now());
    const atEnd = await snapshot([a, c]);
    checks.push(
      ...oncePerPeriod('three processes', { before: spawned, after: spawned }, beforeKill, ['a', 'b', 'c'], firstReady),
      ...oncePerPeriod('two left after the kill', afterKill, atEnd, ['a', 'c']),
    );

    console.log('\nmany processes');
    console.log(`  reservations/s through the proxy: 1 process ${rate(one)}, 3 processes ${rate(three)} (2 cores)`);
    console.log(
      `  sell-out with a process killed: ${sellOut.reservations} reservations, ${sellOut.paid.size} paid, ${sellOut.failedRequests} requests lost with the process`,
    );
    for (const [name, ok, detail] of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name} (${detail})`);
  } finally {
    proxy?.close();
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => Promise.race([p.exited, sleep(15_000)])));
    await sql.end();
    await database.stop();
  }
  const failed = checks.some(([, ok]) => !ok);
  if (!failed) await rm(dir, { recursive: true, force: true });
  else log(`kept ${dir} for inspection`);
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
// An error thrown outside main's chain (a stream callback) still ends the run through main's finally.
process.on('uncaughtException', (error) => {
  console.error(error);
  process.exitCode = 1;
});
