/**
 * Crash safety (npm run test:hard). Starts the production build (node dist/server/main.js) on a fresh
 * DATA_DIR with its embedded PostgreSQL; 50 signed-in clients reserve and pay in a loop; the app is
 * killed with SIGKILL 10 times (in some rounds the PostgreSQL postmaster instead) and restarted each time.
 * After every restart, straight from the database: capacity = available + held + sold for every event,
 * every booking a client saw paid is still paid, lapsed holds are released, and a retried reservation with
 * the same Idempotency-Key returns the original booking. In round CANCEL_ROUND the organiser cancels the small
 * event and the app is killed while its refunds are being made: by the end every paid booking of it is refunded in
 * full, once, with one email (the refunds job finishes what the crash cut off). Figures go to
 * server/test/hard/results/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type CapacityParts, capacityAddsUp, capacityPartsQuery } from '../capacity-invariant';
import { TICKETS_NOT_FOLLOWING_BOOKINGS, type TicketMismatch } from '../ticket-invariant';
import { freePort, log, sleep } from './scripts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RESULTS = path.join(import.meta.dirname, 'results', 'crash-safety.json');
const ROUNDS = Number(process.argv[2] ?? 10);
/** The production server bundle (a private copy can be passed while others rebuild dist/). */
const MAIN = path.resolve(process.argv[3] ?? path.join(ROOT, 'dist/server/main.js'));
const CLIENTS = 50;
const HOLD_MINUTES = 1;
/** The round in which the small event is cancelled just before the kill. */
const CANCEL_ROUND = 2;
const EVENTS = [
  { title: 'Crash Test Arena', capacity: 40000 },
  { title: 'Crash Test Club', capacity: 20000 },
  { title: 'Crash Test Hall', capacity: 40 },
];

// --- the app process ---------------------------------------------------------------------------------

interface App {
  child: ChildProcess;
  exited: Promise<number | null>;
}

let dataDir = '';
let port = 0;
let logStream: ReturnType<typeof createWriteStream>;

function startApp(): App {
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    cwd: dataDir,
    env: {
      PATH: `${path.dirname(process.execPath)}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      HOLD_MINUTES: String(HOLD_MINUTES),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(logStream, { end: false });
  child.stderr?.pipe(logStream, { end: false });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited };
}

async function waitHealthy(timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return Date.now() - started;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`the app did not become healthy within ${timeoutMs} ms (see ${dataDir}/app.log)`);
}

async function postmasterPid(): Promise<number | undefined> {
  try {
    const text = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
    const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function kill(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// --- SQL, straight to the embedded cluster ------------------------------------------------------------

function sqlConfig(): pg.ClientConfig {
  return {
    host: path.join(dataDir, 'postgres'),
    port: 5432,
    user: 'postgres',
    password: readFileSync(path.join(dataDir, '.postgres-password'), 'utf8').trim(),
    database: 'eventry',
  };
}

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(sqlConfig());
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

// --- clients -----------------------------------------------------------------------------------------

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

class Client {
  readonly ip: string;
  readonly agent: http.Agent;
  cookie = '';
  /** Idempotency-Key → booking id, for every reservation whose answer the client saw. */
  readonly keys = new Map<string, string>();
  /** Keys whose request died with the app: retried after the restart. */
  readonly unresolved: Array<{ key: string; eventId: string; quantity: number }> = [];
  readonly paid = new Set<string>();
  email = '';

  constructor(readonly index: number) {
    this.ip = `127.0.${1 + Math.floor(index / 200)}.${1 + (index % 200)}`;
    this.agent = new http.Agent({ keepAlive: true, localAddress: this.ip, maxSockets: 1 } as http.AgentOptions);
  }

  request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: url,
          agent: this.agent,
          timeout: 60_000,
          headers: {
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...(this.cookie ? { cookie: this.cookie } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const cookies = res.headers['set-cookie'];
            if (cookies?.length) this.cookie = cookies.map((c) => c.split(';')[0]).join('; ');
            let parsed: Record<string, unknown> = {};
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  async signUp(): Promise<void> {
    const email = `crash-${this.index}-${randomUUID().slice(0, 6)}@example.com`;
    this.email = email;
    for (;;) {
      try {
        const res = await this.request('POST', '/api/auth/sign-up/email', {
          firstName: 'Crash',
          lastName: 'Client',
          email,
          password: 'Secret123',
        });
        if (res.status === 200) return;
        if (res.status === 409) {
          // An earlier attempt got through but its answer was lost: sign in instead.
          const signIn = await this.request('POST', '/api/auth/sign-in/email', { email, password: 'Secret123' });
          if (signIn.status === 200) return;
        }
        throw new Error(`sign-up answered ${res.status} ${JSON.stringify(res.body)}`);
      } catch (error) {
        if ((error as Error).message.startsWith('sign-up answered')) throw error;
        log(`client ${this.index}: sign-up failed (${(error as Error).message}); retrying`);
        await sleep(200);
      }
    }
  }
}

const stats = {
  reservations: 0,
  soldOut: 0,
  payments: 0,
  paid: 0,
  transportErrors: 0,
  /** Reservations cut off by a crash (sent, answer lost): each is retried with its key after the restart. */
  cutOff: 0,
  /** 503 answers while the database was down (the client may retry). */
  unavailable: 0,
  /** Any other 5xx: a failure of the run. */
  serverErrors: 0,
  otherStatuses: {} as Record<string, number>,
};

/** Set while the idempotency retries run, so that they are not queued behind fifty busy clients. */
let paused = false;

async function clientLoop(client: Client, eventIds: string[], running: () => boolean): Promise<void> {
  while (running()) {
    while (paused) await sleep(50);
    const eventId = eventIds[Math.floor(Math.random() * eventIds.length)] as string;
    const quantity = 1 + Math.floor(Math.random() * 3);
    const key = randomUUID();
    let bookingId: string | undefined;
    try {
      const res = await client.request('POST', '/api/bookings', { eventId, quantity }, { 'idempotency-key': key });
      if (res.status === 201 || res.status === 200) {
        bookingId = String(res.body.id);
        client.keys.set(key, bookingId);
        stats.reservations++;
      } else if (res.status === 409) stats.soldOut++;
      else if (res.status === 503) stats.unavailable++;
      else if (res.status >= 500) stats.serverErrors++;
      else stats.otherStatuses[res.status] = (stats.otherStatuses[res.status] ?? 0) + 1;
    } catch (error) {
      stats.transportErrors++;
      // Refused connections never reached the app; anything else may have been cut off mid-way.
      if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
        stats.cutOff++;
        client.unresolved.push({ key, eventId, quantity });
      }
      await sleep(500);
      continue;
    }
    // One in five clients walks away from its hold: the expiry job must give those tickets back.
    if (bookingId && Math.random() < 0.8) {
      try {
        const res = await client.request('POST', '/api/payments/simulated/confirm', {
          bookingId,
          cardNumber: '4242424242424242',
          expMonth: 12,
          expYear: 2035,
          cvc: '123',
        });
        stats.payments++;
        if (res.status === 200 && res.body.status === 'paid') {
          client.paid.add(bookingId);
          stats.paid++;
        } else if (res.status === 503) stats.unavailable++;
        else if (res.status >= 500) stats.serverErrors++;
      } catch {
        stats.transportErrors++;
      }
    }
    await sleep(Math.random() * 40);
  }
}

// --- checks ------------------------------------------------------------------------------------------

interface Check {
  name: string;
  ok: boolean;
  detail?: unknown;
}

async function checkInvariants(clients: Client[], options: { final: boolean }): Promise<Check[]> {
  const checks: Check[] = [];
  // One statement, one snapshot: the figures are consistent with each other even under load.
  const rows = await sql<CapacityParts>(capacityPartsQuery());
  const broken = rows.filter((r) => !capacityAddsUp(r));
  checks.push({
    name: 'capacity = available + held + offered + sold for every event',
    ok: broken.length === 0,
    detail: broken.length ? broken : rows,
  });

  const mismatched = await sql<TicketMismatch>(TICKETS_NOT_FOLLOWING_BOOKINGS);
  checks.push({
    name: 'every paid booking has its tickets 1..quantity, and no other booking a valid one',
    ok: mismatched.length === 0,
    detail: mismatched.length ? mismatched : undefined,
  });

  const seenPaid = clients.flatMap((c) => [...c.paid]);
  const notPaid = seenPaid.length
    ? await sql<{ id: string; status: string }>(
        // Paid stays paid, but for the organiser cancelling the event (CANCEL_ROUND): refunded in full then.
        `SELECT id, status FROM bookings WHERE id = ANY($1::uuid[]) AND status <> 'paid'
            AND NOT (status = 'refunded' AND ended_reason = 'event_cancelled')`,
        [seenPaid],
      )
    : [];
  const missing = seenPaid.length
    ? seenPaid.length -
      ((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM bookings WHERE id = ANY($1::uuid[])`, [seenPaid]))[0]
        ?.n ?? 0)
    : 0;
  checks.push({
    name: 'every booking a client saw paid is still paid (or refunded with its cancelled event)',
    ok: notPaid.length === 0 && missing === 0,
    detail: { seenPaid: seenPaid.length, notPaid, missing },
  });

  const grace = options.final ? '0 seconds' : '30 seconds';
  const lapsed = await sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM bookings WHERE status = 'pending' AND expires_at < now() - interval '${grace}'`,
  );
  checks.push({
    name: `holds are released within ${grace} of their expiry`,
    ok: lapsed[0]?.n === 0,
    detail: lapsed[0],
  });

  const doubled = await sql<{ user_id: string; idempotency_key: string; n: number }>(
    `SELECT user_id, idempotency_key, count(*)::int AS n FROM bookings WHERE idempotency_key IS NOT NULL
      GROUP BY 1, 2 HAVING count(*) > 1`,
  );
  checks.push({ name: 'one booking per Idempotency-Key', ok: doubled.length === 0, detail: doubled });

  const emails = await sql<{ n: number; paid: number }>(
    `SELECT (SELECT count(*)::int FROM email_outbox WHERE dedupe_key LIKE 'booking-paid:%') AS n,
            (SELECT count(*)::int FROM bookings WHERE paid_at IS NOT NULL) AS paid`,
  );
  checks.push({
    name: 'at most one confirmation email per paid booking',
    ok: (emails[0]?.n ?? 0) <= (emails[0]?.paid ?? 0),
    detail: emails[0],
  });
  return checks;
}

/**
 * The cancelled event: every booking of it that was ever paid is refunded in full (tickets and piasters), by one
 * succeeded refund, none left asked for, with one refund email each; nothing of it is held or on sale.
 */
async function checkCancelledEventRefunded(eventId: string): Promise<Check> {
  // The refunds job finishes refunds a crash cut off once they are a minute old, every 30 s.
  let wrong: unknown[] = [];
  let bookings = 0;
  for (let attempt = 0; attempt < 30; attempt++) {
    const rows = await sql<{
      id: string;
      status: string;
      whole: boolean;
      refunds: number;
      open: number;
      emails: number;
    }>(
      `SELECT b.id, b.status,
              (b.refunded_quantity = b.quantity AND b.refunded_piasters = b.total_piasters) AS whole,
              (SELECT count(*)::int FROM refunds r WHERE r.booking_id = b.id AND r.status = 'succeeded') AS refunds,
              (SELECT count(*)::int FROM refunds r WHERE r.booking_id = b.id AND r.status = 'requested') AS open,
              (SELECT count(*)::int FROM email_outbox m JOIN refunds r ON m.dedupe_key = 'refund:' || r.id
                WHERE r.booking_id = b.id) AS emails
         FROM bookings b WHERE b.event_id = $1 AND b.paid_at IS NOT NULL`,
      [eventId],
    );
    bookings = rows.length;
    wrong = rows.filter(
      (r) => r.status !== 'refunded' || !r.whole || r.refunds !== 1 || r.open !== 0 || r.emails !== 1,
    );
    if (wrong.length === 0) break;
    await sleep(5_000);
  }
  return {
    name: 'a cancelled event killed halfway through its refunds: every paid booking refunded in full, once, one email',
    ok: bookings > 0 && wrong.length === 0,
    detail: { bookings, wrong: wrong.slice(0, 20) },
  };
}

async function checkIdempotency(clients: Client[]): Promise<Check> {
  const started = Date.now();
  let retried = 0;
  const mismatches: unknown[] = [];
  for (const client of clients) {
    const known = [...client.keys.entries()].slice(-1);
    for (const [key, id] of known) {
      const entry = { key, eventId: '', quantity: 1 };
      const row = await sql<{ event_id: string; quantity: number }>(
        `SELECT event_id, quantity FROM bookings WHERE id = $1`,
        [id],
      );
      if (!row[0]) {
        mismatches.push({ key, id, problem: 'booking missing from the database' });
        continue;
      }
      entry.eventId = row[0].event_id;
      entry.quantity = row[0].quantity;
      const t0 = Date.now();
      const res = await client.request(
        'POST',
        '/api/bookings',
        { eventId: entry.eventId, quantity: entry.quantity },
        { 'idempotency-key': key },
      );
      if (Date.now() - t0 > 1000) log(`client ${client.index}: idempotent retry took ${Date.now() - t0} ms`);
      retried++;
      if (String(res.body.id) !== id) mismatches.push({ key, expected: id, got: res.status, body: res.body });
    }
    // Requests cut off by a crash: retrying must settle on one booking, never two.
    for (const pending of client.unresolved.splice(0)) {
      const res = await client.request(
        'POST',
        '/api/bookings',
        { eventId: pending.eventId, quantity: pending.quantity },
        { 'idempotency-key': pending.key },
      );
      retried++;
      if (res.status === 201 || res.status === 200) client.keys.set(pending.key, String(res.body.id));
      if (res.status >= 500) mismatches.push({ key: pending.key, status: res.status, body: res.body });
    }
  }
  log(`idempotency: ${retried} retries checked in ${Date.now() - started} ms`);
  return {
    name: 'a retried reservation with the same Idempotency-Key returns the original booking',
    ok: mismatches.length === 0,
    detail: { retried, mismatches },
  };
}

// --- the run -----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (node scripts/build.mjs)`);
  dataDir = await mkdtemp(path.join(tmpdir(), 'eventry-crash-'));
  port = await freePort();
  logStream = createWriteStream(path.join(dataDir, 'app.log'));
  log(`data dir ${dataDir}, port ${port}`);

  let app = startApp();
  // If this harness dies, leave no app or database process behind.
  process.on('exit', () => {
    kill(app.child.pid);
    const text = existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))
      ? readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
      : '';
    const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
    if (pid > 0) kill(pid);
  });
  const firstStart = await waitHealthy();
  log(`first start healthy in ${firstStart} ms`);

  const eventIds: string[] = [];
  for (const event of EVENTS) {
    const [row] = await sql<{ id: string }>(
      `INSERT INTO events (title, host, location, description, price_piasters, capacity, tickets_available,
                           start_date, end_date, event_date, start_time, end_time, image_url, category_id)
       VALUES ($1, 'Crash host', 'Cairo', 'Tickets under fire.', 5000, $2, $2,
               current_date, current_date + 30, current_date + 31, '19:00', '22:00',
               '/uploads/eventImg/00000000-0000-0000-0000-000000000000.webp', 'music')
       RETURNING id`,
      [event.title, event.capacity],
    );
    if (!row) throw new Error('could not create an event');
    eventIds.push(row.id);
  }

  const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(i));
  // Password hashing is CPU-bound: sign up a few at a time rather than all fifty at once.
  for (let i = 0; i < clients.length; i += 5) await Promise.all(clients.slice(i, i + 5).map((c) => c.signUp()));
  log(`${clients.length} clients signed up`);
  // The organiser: an account made admin, signed in again so that its session says so.
  const organiser = new Client(CLIENTS + 1);
  await organiser.signUp();
  await sql(`UPDATE users SET role = 'admin', email_verified = true WHERE email = $1`, [organiser.email]);
  organiser.cookie = ''; // a sign-in that carries a session cookie must come from a page (origin check)
  const again = await organiser.request('POST', '/api/auth/sign-in/email', {
    email: organiser.email,
    password: 'Secret123',
  });
  if (again.status !== 200) {
    throw new Error(`the organiser could not sign in: ${again.status} ${JSON.stringify(again.body)}`);
  }
  const cancelledEvent = eventIds[2] as string;

  const rounds: Array<{ round: number; killed: 'app' | 'postgres'; restartMs: number; checks: Check[] }> = [];
  let failures = 0;
  let load = true;
  const loops = clients.map((c) => clientLoop(c, eventIds, () => load));

  for (let round = 1; round <= ROUNDS; round++) {
    await sleep(2000 + Math.random() * 3000);
    const killPostgres = round % 3 === 0;
    let outlived: Check | undefined;
    if (killPostgres) {
      const pid = await postmasterPid();
      log(`round ${round}: SIGKILL to the PostgreSQL postmaster (pid ${pid})`);
      kill(pid);
      // The app notices its database is gone and answers 503 meanwhile (it must not crash under the queries
      // in flight); then it is killed too, as a supervisor would restart it.
      await sleep(1500);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.status,
        (error: unknown) => String(error),
      );
      const running = app.child.exitCode === null && app.child.signalCode === null;
      outlived = {
        name: 'the app outlives its database (still running, /api/health 503)',
        ok: running && health === 503,
        detail: { running, health },
      };
    } else if (round === CANCEL_ROUND) {
      // The organiser cancels the small (sold-out) event; the app dies while its refunds are being made.
      void organiser.request('POST', `/api/admin/events/${cancelledEvent}/cancel`).catch(() => undefined);
      // Killed halfway: once the refunds have been asked for, before they have all been made (or at 3 s).
      let asked: { n: number; done: number } | undefined;
      for (let waited = 0; waited < 3000; waited += 5) {
        [asked] = await sql<{ n: number; done: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE r.status = 'succeeded')::int AS done
             FROM refunds r JOIN bookings b ON b.id = r.booking_id WHERE b.event_id = $1`,
          [cancelledEvent],
        );
        if ((asked?.n ?? 0) > 0) break;
        await sleep(5);
      }
      log(
        `round ${round}: cancelling the small event (${asked?.n ?? 0} refunds asked for, ${asked?.done ?? 0} made); SIGKILL to the app`,
      );
    } else {
      log(`round ${round}: SIGKILL to the app (pid ${app.child.pid})`);
    }
    kill(app.child.pid);
    await app.exited;
    await sleep(300);
    app = startApp();
    let restartMs: number;
    try {
      restartMs = await waitHealthy();
    } catch (error) {
      rounds.push({
        round,
        killed: killPostgres ? 'postgres' : 'app',
        restartMs: -1,
        checks: [{ name: 'restart', ok: false, detail: String(error) }],
      });
      failures++;
      log(`round ${round}: the app did not come back`);
      break;
    }
    await sleep(3000); // the expiry job runs at start; give it a moment under load
    log(`round ${round}: healthy after ${restartMs} ms; load so far ${JSON.stringify(stats)}`);
    const invariants = await checkInvariants(clients, { final: false });
    log(`round ${round}: invariants read`);
    paused = true;
    const idempotency = await checkIdempotency(clients);
    paused = false;
    const checks = [...invariants, idempotency, ...(outlived ? [outlived] : [])];
    const failed = checks.filter((c) => !c.ok);
    failures += failed.length;
    rounds.push({ round, killed: killPostgres ? 'postgres' : 'app', restartMs, checks });
    log(
      `round ${round}: back in ${restartMs} ms; ${failed.length ? `FAILED ${failed.map((c) => c.name).join('; ')}` : 'all checks hold'}`,
    );
    for (const c of failed) log(JSON.stringify(c.detail).slice(0, 2000));
  }

  load = false;
  await Promise.all(loops);
  log(`load stopped; waiting ${HOLD_MINUTES} min + 10 s for the last holds to lapse`);
  await sleep(HOLD_MINUTES * 60_000 + 10_000);
  const finalChecks = await checkInvariants(clients, { final: true });
  if (ROUNDS >= CANCEL_ROUND) finalChecks.push(await checkCancelledEventRefunded(cancelledEvent));
  finalChecks.push({
    name: 'no 5xx other than 503 while the database was down',
    ok: stats.serverErrors === 0,
    detail: { serverErrors: stats.serverErrors, unavailable: stats.unavailable },
  });
  const finalFailed = finalChecks.filter((c) => !c.ok);
  failures += finalFailed.length;
  log(`final: ${finalFailed.length ? `FAILED ${finalFailed.map((c) => c.name).join('; ')}` : 'all checks hold'}`);
  for (const c of finalFailed) log(JSON.stringify(c.detail).slice(0, 2000));

  app.child.kill('SIGTERM');
  const code = await Promise.race([app.exited, sleep(30_000).then(() => 'timeout' as const)]);
  const pgLeft = await postmasterPid();
  const gracefulOk = code === 0 && (pgLeft === undefined || !isAlive(pgLeft));
  if (!gracefulOk) failures++;
  log(`graceful stop: exit code ${code}; postgres ${pgLeft && isAlive(pgLeft) ? 'still running' : 'stopped'}`);

  const survived = rounds.filter((r) => r.checks.every((c) => c.ok)).length;
  const result = {
    date: new Date().toISOString(),
    rounds: ROUNDS,
    roundsSurvived: survived,
    appKills: rounds.filter((r) => r.killed === 'app').length,
    postgresKills: rounds.filter((r) => r.killed === 'postgres').length,
    clients: CLIENTS,
    holdMinutes: HOLD_MINUTES,
    firstStartMs: firstStart,
    restartMs: rounds.map((r) => r.restartMs),
    load: stats,
    final: finalChecks,
    gracefulStop: { exitCode: code, ok: gracefulOk },
    failures,
    perRound: rounds.map((r) => ({
      round: r.round,
      killed: r.killed,
      restartMs: r.restartMs,
      failed: r.checks.filter((c) => !c.ok),
    })),
  };
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
  log(
    `${survived}/${ROUNDS} rounds survived; ${stats.reservations} reservations, ${stats.paid} paid, ${stats.soldOut} sold out, ${stats.serverErrors} 5xx (besides ${stats.unavailable} 503 while the database was down), ${stats.transportErrors} transport errors; results in ${path.relative(ROOT, RESULTS)}`,
  );
  logStream.end();
  if (failures === 0) await rm(dataDir, { recursive: true, force: true });
  else log(`kept ${dataDir} for inspection`);
  process.exit(failures === 0 ? 0 : 1);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
