import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { sendProblem } from './errors';

/**
 * Prometheus metrics at GET /metrics, for METRICS_TOKEN's bearer only (without a token the address does not
 * exist): request latency by route (and how many requests the front door answered), reservations and payments by
 * outcome (read from their answers), holds active, the mail outbox's depth and age, the database pools' use,
 * live-stream clients, scheduled jobs' tries by outcome, and Node's own (memory, CPU, event-loop delay). Each app
 * has its own registry.
 */

/** What a reservation's or a payment's status code says happened. */
const OUTCOMES: Record<string, { metric: 'reservations' | 'payments'; byStatus: Record<number, string> }> = {
  'POST /api/bookings': {
    metric: 'reservations',
    byStatus: { 201: 'held', 409: 'sold_out', 404: 'not_found', 400: 'invalid', 401: 'signed_out', 503: 'unavailable' },
  },
  'POST /api/payments/simulated/confirm': {
    metric: 'payments',
    byStatus: {
      200: 'paid',
      402: 'card_refused',
      409: 'hold_ended',
      404: 'not_found',
      400: 'invalid',
      503: 'unavailable',
    },
  },
  'POST /api/payments/stripe/webhook': {
    metric: 'payments',
    byStatus: { 200: 'webhook_accepted', 400: 'webhook_refused', 503: 'unavailable' },
  },
  'POST /api/payments/paymob/callback': {
    metric: 'payments',
    byStatus: { 200: 'paymob_callback_accepted', 400: 'paymob_callback_refused', 502: 'paymob_unreachable' },
  },
};

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const metricsPlugin = fp(
  async function metrics(app: FastifyInstance, opts: { token: string | undefined }) {
    const { token } = opts;
    if (!token) return;
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'eventry_' });
    const requests = new Histogram({
      name: 'eventry_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    const outcomes = {
      reservations: new Counter({
        name: 'eventry_reservations_total',
        help: 'Reservations by outcome',
        labelNames: ['outcome'] as const,
        registers: [registry],
      }),
      payments: new Counter({
        name: 'eventry_payments_total',
        help: 'Payment confirmations and provider webhooks by outcome',
        labelNames: ['outcome'] as const,
        registers: [registry],
      }),
    };
    const pool = app.database.pool;
    const reservationPool = app.database.reservationPool;
    new Gauge({
      name: 'eventry_db_pool_connections',
      help: 'Database connections of this process by pool and state',
      labelNames: ['pool', 'state'] as const,
      registers: [registry],
      collect() {
        for (const [name, each] of [
          ['main', pool],
          ['reservations', reservationPool],
        ] as const) {
          this.set({ pool: name, state: 'total' }, each.totalCount);
          this.set({ pool: name, state: 'idle' }, each.idleCount);
          this.set({ pool: name, state: 'waiting' }, each.waitingCount);
        }
      },
    });
    new Gauge({
      name: 'eventry_live_clients',
      help: 'Live-update streams this process holds open',
      registers: [registry],
      collect() {
        this.set(app.notifications.clientCount);
      },
    });
    const jobs = new Counter({
      name: 'eventry_job_runs_total',
      help: "Scheduled jobs' periods by outcome: ran or failed in this process, busy (another process was running it) or done (its run for the period was made already)",
      labelNames: ['job', 'outcome'] as const,
      registers: [registry],
    });
    app.scheduler.onTry((job, outcome) => jobs.inc({ job, outcome }));
    new Gauge({
      name: 'eventry_job_period_seconds',
      help: 'The period of each scheduled job of this process',
      labelNames: ['job'] as const,
      registers: [registry],
      collect() {
        for (const [job, ms] of app.scheduler.periods) this.set({ job }, ms / 1000);
      },
    });
    // Read from the database at each scrape (both answered from partial indexes of pending rows).
    const holds = new Gauge({ name: 'eventry_holds_active', help: 'Pending reservations', registers: [registry] });
    const outboxDepth = new Gauge({
      name: 'eventry_mail_outbox_pending',
      help: 'Emails waiting to be sent',
      registers: [registry],
    });
    const outboxAge = new Gauge({
      name: 'eventry_mail_outbox_oldest_seconds',
      help: 'Age of the oldest email waiting to be sent',
      registers: [registry],
    });

    // Synchronous (no promise per answer): it runs for every request the server answers.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      requests.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
      const outcome = OUTCOMES[`${request.method} ${route}`];
      if (outcome) {
        outcomes[outcome.metric].inc({ outcome: outcome.byStatus[reply.statusCode] ?? `status_${reply.statusCode}` });
      }
      done();
    });

    const frontDoorAnswers = new Counter({
      name: 'eventry_http_front_door_answers_total',
      help: 'Requests answered from memory before the framework saw them (counted in the request latency too)',
      labelNames: ['route', 'status'] as const,
      registers: [registry],
    });
    app.frontDoor.onAnswered((route, status, seconds) => {
      requests.observe({ method: 'GET', route, status }, seconds);
      frontDoorAnswers.inc({ route, status });
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const header = request.headers.authorization ?? '';
      if (!header.startsWith('Bearer ') || !sameToken(header.slice(7), token)) {
        return sendProblem(reply, 401, 'UNAUTHORIZED', 'A metrics token is needed (Authorization: Bearer)');
      }
      const counts = await pool.query<{ holds: number; pending: number; oldest: number | null }>(
        `SELECT (SELECT count(*)::int FROM bookings WHERE status = 'pending') AS holds,
                (SELECT count(*)::int FROM email_outbox WHERE status = 'pending') AS pending,
                (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM email_outbox WHERE status = 'pending') AS oldest`,
      );
      const row = counts.rows[0];
      holds.set(row?.holds ?? 0);
      outboxDepth.set(row?.pending ?? 0);
      outboxAge.set(row?.oldest ?? 0);
      reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
      return registry.metrics();
    });
  },
  { name: 'metrics', dependencies: ['database', 'notifications', 'scheduler'] },
);
