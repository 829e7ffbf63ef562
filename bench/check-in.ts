/**
 * Tickets at the door and at the till (issue 33), row 7 of `npm run bench` (`--only=7` runs it alone):
 *
 * (a) Check-ins per second on one event through HTTP: 50 scanners, each with one keep-alive connection,
 *     each request a different valid ticket's short code (so every answer is a real admission: a row lock and
 *     an UPDATE), beside the bare-route ceiling: bench/ceiling-server.mjs answering POST /api/check-in with the
 *     bytes our app answered, measured in turns with ours (ours, ceiling, ceiling, ours, …) as rows 1-2 are.
 *     The tickets are issued beforehand by inserting paid bookings straight into the database (the booking
 *     module's trigger issues their tickets), then their codes are read back.
 * (b) What issuing tickets costs a payment: 50 buyers reserving and paying (the on-sale of row 3) with the
 *     ticket-issuing trigger disabled (A) and enabled (B), in the order A B B A so that a change of the
 *     machine's speed falls on both alike; paid/s of B against A.
 *
 * Nothing here asserts a timing: the figures go to the table and to latest.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { LeanConnection } from './lib/lean-http';
import { type CeilingServer, round } from './lib/load';
import type { BenchRow } from './lib/report';
import { type Buyer, createBuyers, createEvent, type HttpRun, latencies, openBuyers, runHttp } from './reservations';

export interface CheckInBenchOptions {
  baseUrl: string;
  dataDir: string;
  database: pg.PoolConfig;
  /** Starts the bare Fastify ceiling with these bodies (bench/lib/load.ts startCeiling). */
  startCeiling: (bodies: Record<string, string>) => Promise<CeilingServer>;
  scanners: number;
  durationSeconds: number;
  log: (message: string) => void;
}

export interface CheckInSide {
  requests: number;
  perSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Answers by outcome ('admitted', …) or HTTP status when not 200. */
  answers: Record<string, number>;
}

export interface CheckInBenchResult {
  ticketsIssued: number;
  issueSeconds: number;
  checkIn: {
    scanners: number;
    ours: CheckInSide;
    ceiling: CheckInSide;
    ratio: number;
    /** The admission's UPDATE alone, one commit each, through node-postgres. */
    rawDatabase: { transactions: number; perSecond: number };
  };
  issuing: { buyers: number; order: string[]; withoutTickets: HttpRun[]; withTickets: HttpRun[]; ratio: number };
  rows: Array<Omit<BenchRow, 'row'>>;
}

const TICKETS_PER_BOOKING = 10;

/** `tickets` tickets of one new event, issued by the trigger as paid bookings are inserted; their codes. */
async function issueTickets(pool: pg.Pool, tickets: number): Promise<{ eventId: string; codes: string[] }> {
  const bookings = Math.ceil(tickets / TICKETS_PER_BOOKING);
  const capacity = bookings * TICKETS_PER_BOOKING;
  const eventId = await createEvent(pool, 'Door benchmark', capacity);
  const holders = `door-${randomBytes(4).toString('hex')}-`;
  // A thousand holders (a name each, as the door shows), each with several bookings of ten.
  await pool.query(
    `INSERT INTO users (id, name, email) SELECT $1 || n, 'Holder ' || n, $1 || n || '@example.com'
       FROM generate_series(1, 1000) AS n`,
    [holders],
  );
  await pool.query(
    `INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, status, expires_at, paid_at)
     SELECT $1 || (1 + n % 1000), $2, $3::int, 15000, $3::int * 15000, 'paid', now(), now()
       FROM generate_series(1, $4::int) AS n`,
    [holders, eventId, TICKETS_PER_BOOKING, bookings],
  );
  // Capacity = available + held + sold: every ticket is sold.
  await pool.query('UPDATE events SET tickets_available = 0 WHERE id = $1', [eventId]);
  const result = await pool.query<{ code: string }>('SELECT code FROM tickets WHERE event_id = $1 ORDER BY id', [
    eventId,
  ]);
  return { eventId, codes: result.rows.map((row) => row.code) };
}

/** A signed-in admin (user, session and cookie written straight to the database, as the buyers are). */
export async function adminCookie(pool: pg.Pool, authSecret: string): Promise<string> {
  const [cookie] = await createBuyers(pool, authSecret, 1);
  const token = decodeURIComponent((cookie as string).split('=')[1] as string).split('.')[0];
  await pool.query(
    `UPDATE users SET role = 'admin', name = 'Door Bench' WHERE id = (SELECT user_id FROM sessions WHERE token = $1)`,
    [token],
  );
  return cookie as string;
}

/** Codes to scan, each once; the ceiling, which reads none, goes round a few (it must not use up ours). */
interface Codes {
  list: string[];
  next: number;
  cycle?: boolean;
}

/**
 * The database's own rate for the same admissions: `connections` loops of the check-in's conditional UPDATE,
 * one commit each, straight through node-postgres (no HTTP, no session, no reads around it).
 */
async function rawAdmissions(
  database: pg.PoolConfig,
  eventId: string,
  codes: Codes,
  connections: number,
  seconds: number,
): Promise<{ transactions: number; perSecond: number }> {
  const pool = new pg.Pool({ ...database, max: connections });
  pool.on('error', () => {});
  const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
  let transactions = 0;
  const started = performance.now();
  const stopAt = started + seconds * 1000;
  try {
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < stopAt) {
          const code = codes.list[codes.next++];
          if (!code) break;
          await client.query(
            `UPDATE tickets SET checked_in_at = now(), checked_in_by_name = 'Raw'
              WHERE event_id = $1 AND code = $2 AND checked_in_at IS NULL AND voided_at IS NULL`,
            [eventId, code],
          );
          transactions++;
        }
      }),
    );
  } finally {
    for (const client of clients) client.release(true);
    await pool.end();
  }
  const elapsed = (performance.now() - started) / 1000;
  return { transactions, perSecond: round(transactions / elapsed) };
}

/**
 * `scanners` loops, each on its own connection, each posting the next unused code until `seconds` have passed or
 * the codes run out. The same requests go to ours and to the ceiling (which does not read them).
 */
async function scan(
  connections: LeanConnection[],
  head: string,
  eventId: string,
  codes: Codes,
  seconds: number,
  times: number[],
  answers: Record<string, number>,
): Promise<{ requests: number; seconds: number }> {
  const started = performance.now();
  const stopAt = started + seconds * 1000;
  let requests = 0;
  let last = started;
  await Promise.all(
    connections.map(async (connection) => {
      while (performance.now() < stopAt) {
        const code = codes.list[codes.cycle ? codes.next++ % codes.list.length : codes.next++];
        if (!code) break;
        const t0 = performance.now();
        const answer = await connection
          .request(head, JSON.stringify({ eventId, code }))
          .catch(() => ({ status: 0, body: '' }));
        last = performance.now();
        times.push(last - t0);
        requests++;
        let key = `HTTP ${answer.status}`;
        if (answer.status === 200) {
          try {
            key = (JSON.parse(answer.body) as { outcome?: string }).outcome ?? key;
          } catch {
            // counted under its status
          }
        }
        answers[key] = (answers[key] ?? 0) + 1;
      }
    }),
  );
  return { requests, seconds: (Math.min(last, stopAt) - started) / 1000 };
}

function checkInHead(base: URL, cookie: string): string {
  return [
    'POST /api/check-in HTTP/1.1',
    `host: ${base.host}`,
    'content-type: application/json',
    `cookie: ${cookie}`,
    `origin: ${base.origin}`,
  ].join('\r\n');
}

async function checkInRate(
  options: CheckInBenchOptions,
  pool: pg.Pool,
  authSecret: string,
): Promise<Pick<CheckInBenchResult, 'checkIn' | 'ticketsIssued' | 'issueSeconds'>> {
  const { log, scanners } = options;
  const seconds = options.durationSeconds;
  const t0 = performance.now();
  // Enough for a fast machine: 50 scanners at ~8,000/s for the measured and warm-up seconds.
  const wanted = Math.min(150_000, Math.max(20_000, Math.ceil(8000 * (seconds + 2))));
  const { eventId, codes } = await issueTickets(pool, wanted);
  const issueSeconds = round((performance.now() - t0) / 1000, 2);
  log(`${codes.length} tickets issued by the trigger in ${issueSeconds} s`);
  const cookie = await adminCookie(pool, authSecret);
  await pool.query('CHECKPOINT');

  const oursUrl = new URL(options.baseUrl);
  const oursConnections = Array.from(
    { length: scanners },
    () => new LeanConnection(oursUrl.hostname, Number(oursUrl.port)),
  );
  const list: Codes = { list: codes, next: 0 };
  const ceilingCodes: Codes = { list: codes.slice(-1000), next: 0, cycle: true };
  // The first answer of ours is what the ceiling answers every time.
  const sample: Record<string, number> = {};
  const probe = await (oursConnections[0] as LeanConnection).request(
    checkInHead(oursUrl, cookie),
    JSON.stringify({ eventId, code: list.list[list.next++] }),
  );
  if (probe.status !== 200) throw new Error(`POST /api/check-in answered ${probe.status}: ${probe.body.slice(0, 200)}`);
  const ceiling = await options.startCeiling({ 'POST /api/check-in': probe.body });
  const ceilingUrl = new URL(ceiling.baseUrl);
  const ceilingConnections = Array.from(
    { length: scanners },
    () => new LeanConnection(ceilingUrl.hostname, Number(ceilingUrl.port)),
  );
  const sides = {
    ours: {
      connections: oursConnections,
      head: checkInHead(oursUrl, cookie),
      codes: list,
      times: [] as number[],
      answers: {},
    },
    ceiling: {
      connections: ceilingConnections,
      head: checkInHead(ceilingUrl, cookie),
      codes: ceilingCodes,
      times: [] as number[],
      answers: {},
    },
  };
  const totals = { ours: { requests: 0, seconds: 0 }, ceiling: { requests: 0, seconds: 0 } };
  try {
    // Warm-up, 2 s each side (not counted), then four slices each in turns.
    for (const side of ['ours', 'ceiling'] as const) {
      const s = sides[side];
      await scan(s.connections, s.head, eventId, s.codes, 2, [], sample);
    }
    const slice = seconds / 4;
    for (let i = 0; i < 4; i++) {
      const order = i % 2 === 0 ? (['ours', 'ceiling'] as const) : (['ceiling', 'ours'] as const);
      for (const side of order) {
        const s = sides[side];
        const run = await scan(s.connections, s.head, eventId, s.codes, slice, s.times, s.answers);
        totals[side].requests += run.requests;
        totals[side].seconds += run.seconds;
      }
    }
  } finally {
    for (const connection of [...oursConnections, ...ceilingConnections]) connection.close();
    await ceiling.stop();
  }
  // The codes the HTTP runs left (the last thousand are the ceiling's, which admitted nothing).
  list.list = codes.slice(0, -1000);
  const raw = await rawAdmissions(options.database, eventId, list, scanners, seconds / 2);
  log(`the same UPDATE straight to the database, ${scanners} connections: ${raw.perSecond}/s`);
  if (list.next >= list.list.length)
    log('the tickets ran out before the time did: the rate is over the time they lasted');
  const side = (name: 'ours' | 'ceiling'): CheckInSide => ({
    requests: totals[name].requests,
    perSecond: totals[name].seconds > 0 ? round(totals[name].requests / totals[name].seconds) : 0,
    latencyMs: latencies(sides[name].times),
    answers: sides[name].answers,
  });
  const ours = side('ours');
  const top = side('ceiling');
  log(
    `check-in, ${scanners} scanners: ${ours.perSecond}/s (ceiling ${top.perSecond}/s), p99 ${ours.latencyMs.p99} ms; ` +
      `answers ${JSON.stringify(ours.answers)}`,
  );
  return {
    ticketsIssued: codes.length,
    issueSeconds,
    checkIn: {
      scanners,
      ours,
      ceiling: top,
      ratio: top.perSecond > 0 ? round(ours.perSecond / top.perSecond, 3) : 0,
      rawDatabase: raw,
    },
  };
}

const ISSUE_TRIGGER = 'eventry_issue_tickets_on_pay';

async function issuingCost(
  options: CheckInBenchOptions,
  pool: pg.Pool,
  authSecret: string,
): Promise<CheckInBenchResult['issuing']> {
  const { log } = options;
  const buyersCount = 50;
  const cookies = await createBuyers(pool, authSecret, buyersCount);
  const eventId = await createEvent(pool, `Paid with and without tickets ${randomUUID().slice(0, 6)}`, 400_000);
  const buyers: Buyer[] = openBuyers(options.baseUrl, cookies);
  const order = ['without', 'with', 'with', 'without'] as const;
  const runs: Record<'with' | 'without', HttpRun[]> = { with: [], without: [] };
  const slice = options.durationSeconds / 2;
  try {
    for (const side of order) {
      // Between runs, with no request in flight: ALTER TABLE waits for every transaction on bookings.
      await pool.query(`ALTER TABLE bookings ${side === 'with' ? 'ENABLE' : 'DISABLE'} TRIGGER ${ISSUE_TRIGGER}`);
      await pool.query('CHECKPOINT');
      const run = await runHttp(options.baseUrl, eventId, buyers, 'reserve+pay', slice, 1);
      runs[side].push(run);
      log(
        `${side} tickets: ${run.paidPerSecond} paid/s, payment p99 ${run.payLatencyMs?.p99 ?? '—'} ms, errors ${run.errors}`,
      );
    }
  } finally {
    for (const { connection } of buyers) connection.close();
    await pool.query(`ALTER TABLE bookings ENABLE TRIGGER ${ISSUE_TRIGGER}`);
  }
  const rate = (side: 'with' | 'without') => {
    const paid = runs[side].reduce((sum, run) => sum + run.paid, 0);
    const seconds = runs[side].reduce((sum, run) => sum + run.seconds, 0);
    return seconds > 0 ? paid / seconds : 0;
  };
  const without = rate('without');
  return {
    buyers: buyersCount,
    order: [...order],
    withoutTickets: runs.without,
    withTickets: runs.with,
    ratio: without > 0 ? round(rate('with') / without, 3) : 0,
  };
}

export async function runCheckInBench(options: CheckInBenchOptions): Promise<CheckInBenchResult> {
  const pool = new pg.Pool({ ...options.database, max: 8 });
  pool.on('error', () => {});
  const authSecret = (await readFile(path.join(options.dataDir, '.auth-secret'), 'utf8')).trim();
  try {
    const door = await checkInRate(options, pool, authSecret);
    const issuing = await issuingCost(options, pool, authSecret);
    const { ours, ceiling } = door.checkIn;
    const admitted = ours.answers.admitted ?? 0;
    const paidRate = (runs: HttpRun[]) =>
      round(
        runs.reduce((s, r) => s + r.paid, 0) /
          Math.max(
            1e-9,
            runs.reduce((s, r) => s + r.seconds, 0),
          ),
      );
    const p99 = (runs: HttpRun[]) => Math.max(...runs.map((r) => r.payLatencyMs?.p99 ?? 0));
    const rows: CheckInBenchResult['rows'] = [
      {
        measurement: `check-in, ${door.checkIn.scanners} scanners, a different ticket each: POST /api/check-in req/s vs bare route`,
        ours: Math.round(ours.perSecond),
        ceiling: Math.round(ceiling.perSecond),
        ratio: door.checkIn.ratio,
        target: '—',
        pass: null,
        note: `${door.ticketsIssued} tickets issued beforehand in ${door.issueSeconds} s`,
      },
      {
        measurement: `check-in req/s vs the same UPDATE straight to the database (${door.checkIn.scanners} conn., a commit each)`,
        ours: Math.round(ours.perSecond),
        ceiling: Math.round(door.checkIn.rawDatabase.perSecond),
        ratio:
          door.checkIn.rawDatabase.perSecond > 0 ? round(ours.perSecond / door.checkIn.rawDatabase.perSecond, 3) : null,
        target: '—',
        pass: null,
      },
      {
        measurement: 'check-in p50 / p99 latency',
        ours: `${ours.latencyMs.p50} / ${ours.latencyMs.p99} ms`,
        ceiling: `${ceiling.latencyMs.p50} / ${ceiling.latencyMs.p99} ms`,
        ratio: null,
        target: '—',
        pass: null,
      },
      {
        measurement: 'check-in answers that were admissions',
        ours: `${admitted} of ${ours.requests}`,
        ceiling: null,
        ratio: null,
        target: 'all',
        pass: ours.requests > 0 && admitted === ours.requests,
        note: admitted === ours.requests ? undefined : JSON.stringify(ours.answers),
      },
      {
        measurement: `paying with tickets issued vs without (trigger off/on/on/off), ${issuing.buyers} buyers: paid/s`,
        ours: paidRate(issuing.withTickets),
        ceiling: paidRate(issuing.withoutTickets),
        ratio: issuing.ratio,
        target: '—',
        pass: null,
        unit: '/s',
      },
      {
        measurement: 'payment p99 with tickets issued vs without',
        ours: p99(issuing.withTickets),
        ceiling: p99(issuing.withoutTickets),
        ratio: null,
        target: '—',
        pass: null,
        unit: 'ms',
      },
    ];
    return { ...door, issuing, rows };
  } finally {
    await pool.end();
  }
}
