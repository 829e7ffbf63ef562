import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import {
  LIVE_CHANGE_EVENT,
  LIVE_READY_EVENT,
  LIVE_RESYNC_EVENT,
  type LiveEventChange,
  liveEventChangeSchema,
} from '../../contracts/catalogue';
import { LIVE_SALES_EVENT } from '../../contracts/dashboard';
import { isUuid } from '../../contracts/ids';
import { sendProblem } from './errors';

/** The channel the events trigger (migration 0001_live_notify.sql) notifies on. */
export const EVENTS_CHANNEL = 'eventry_events';
/** The channel the sessions and users triggers (migration 0002_auth_notify.sql) notify on, with a user id. */
export const AUTH_CHANNEL = 'eventry_auth';
/**
 * The channel the bookings and tickets triggers (features/dashboard/sql/eventry_sales_notify.sql) notify on, with
 * an event id: a sale, a refund or a check-in moved that event's figures.
 */
export const SALES_CHANNEL = 'eventry_sales';
const HEARTBEAT_MS = 25_000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;
/** A client that cannot keep up (more than this much unsent output) is dropped; its EventSource reconnects. */
const MAX_BUFFERED_BYTES = 64 * 1024;

/**
 * How many streams this process holds. Each holds a socket, and a process that runs out of file descriptors
 * can neither accept a request nor open a database connection: past these limits a new stream is refused
 * (429) and the page simply goes without live updates. One address gets room for a whole office behind one
 * NAT, not for the whole server.
 */
export interface LiveLimits {
  total: number;
  perAddress: number;
}

const MAX_STREAMS = 10_000;
const MAX_STREAMS_PER_ADDRESS = 1_000;

/** At most half of the process's file descriptors (Linux: its soft RLIMIT_NOFILE) go to streams. */
export function defaultLiveLimits(limitsFile = '/proc/self/limits'): LiveLimits {
  let total = MAX_STREAMS;
  try {
    const openFiles = /^Max open files\s+(\d+)/m.exec(readFileSync(limitsFile, 'utf8'));
    if (openFiles) total = Math.min(total, Math.floor(Number(openFiles[1]) / 2));
  } catch {
    // Not Linux: keep the fixed limit.
  }
  return { total, perAddress: Math.min(MAX_STREAMS_PER_ADDRESS, total) };
}

/**
 * PostgreSQL's notifications, in this process: one LISTEN connection per process relays every change of the
 * events table (from any process on the same database) to in-process caches (the catalogue's answers) and
 * then to the live-update streams (Server-Sent Events) of this process, and every change of sessions and
 * accounts to the session cache (server/plugins/session-cache.ts). The streams live here too: what they
 * send follows the listener's state (a `resync` after a lost connection) and must reach them after the caches.
 */
export interface Notifications {
  /**
   * Turns the request into a live-update stream (SSE) until the client leaves or the app closes. With `sales`
   * (the admins' stream) it also carries a `sales` message {eventId} for every sale, refund or check-in.
   */
  stream(request: FastifyRequest, reply: FastifyReply, options?: { sales?: boolean }): void;
  /** Number of live-update streams this process holds. */
  readonly clientCount: number;
  /** Resolves once this process is LISTENing (used by tests and start-up). */
  whenListening(): Promise<void>;
  /** True while the LISTEN connection is up, i.e. while every change of the events table reaches this process. */
  readonly listening: boolean;
  /**
   * Calls `listener` for every change of the events table, before the SSE clients hear of it, and with
   * `null` whenever changes may have been missed (the LISTEN connection was lost or came back).
   */
  onEventChange(listener: (change: LiveEventChange | null) => void): void;
  /**
   * Calls `listener` with the user id whenever a session or the account of that user changes or goes (in any
   * process), and with `null` whenever such changes may have been missed (LISTEN connection lost or back).
   */
  onAccountChange(listener: (userId: string | null) => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
  }
}

interface Client {
  write(chunk: string): void;
  end(): void;
  /** Whether the stream carries sales messages (admins only). */
  sales: boolean;
}

export const notificationsPlugin = fp(
  async function notifications(app: FastifyInstance, options: { limits?: LiveLimits }) {
    const limits = options.limits ?? defaultLiveLimits();
    const clients = new Set<Client>();
    /** Open streams per client address. */
    const perAddress = new Map<string, number>();
    let listener: pg.Client | undefined;
    let closing = false;
    let reconnectDelay = RECONNECT_MIN_MS;
    let reconnectTimer: NodeJS.Timeout | undefined;
    let listening: Promise<void> | undefined;
    let everConnected = false;

    const changeListeners: Array<(change: LiveEventChange | null) => void> = [];
    const accountListeners: Array<(userId: string | null) => void> = [];

    function broadcast(chunk: string, only?: (client: Client) => boolean) {
      for (const client of clients) if (!only || only(client)) client.write(chunk);
    }

    function notify<T>(listeners: Array<(value: T) => void>, value: T) {
      for (const listener of listeners) {
        try {
          listener(value);
        } catch (err) {
          app.log.error({ err }, 'a live-update listener failed');
        }
      }
    }

    function notifyListeners(change: LiveEventChange | null) {
      notify(changeListeners, change);
      // Whatever was missed is missed on both channels.
      if (change === null) notify(accountListeners, null);
    }

    function onNotification(message: pg.Notification) {
      if (message.channel === AUTH_CHANNEL) {
        notify(accountListeners, message.payload || null);
        return;
      }
      if (message.channel === SALES_CHANNEL) {
        if (message.payload && isUuid(message.payload)) {
          const data = JSON.stringify({ eventId: message.payload });
          broadcast(`event: ${LIVE_SALES_EVENT}\ndata: ${data}\n\n`, (client) => client.sales);
        }
        return;
      }
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
      let change: LiveEventChange;
      try {
        change = liveEventChangeSchema.parse(JSON.parse(message.payload));
      } catch {
        app.log.warn({ payload: message.payload }, 'ignored a malformed live-update notification');
        return;
      }
      // In-process caches first, so that a client refetching on this message gets the new data.
      notifyListeners(change);
      broadcast(`event: ${LIVE_CHANGE_EVENT}\ndata: ${JSON.stringify(change)}\n\n`);
    }

    async function connect(): Promise<void> {
      const client = new pg.Client({ ...app.database.connection, application_name: 'eventry-live' });
      client.on('notification', onNotification);
      client.on('error', (err) => {
        app.log.warn({ err }, 'live-update connection lost; reconnecting');
        dropListener(client);
      });
      client.on('end', () => dropListener(client));
      try {
        await client.connect();
        await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${AUTH_CHANNEL}; LISTEN ${SALES_CHANNEL}`);
      } catch (err) {
        client.end().catch(() => {});
        throw err;
      }
      if (closing) {
        await client.end().catch(() => {});
        return;
      }
      listener = client;
      reconnectDelay = RECONNECT_MIN_MS;
      // Changes made while we were not listening are lost: tell the caches and the clients to refetch.
      notifyListeners(null);
      if (everConnected) broadcast(`event: ${LIVE_RESYNC_EVENT}\ndata: {}\n\n`);
      everConnected = true;
    }

    function dropListener(client: pg.Client) {
      if (listener !== client) return;
      listener = undefined;
      notifyListeners(null);
      client.end().catch(() => {});
      scheduleReconnect();
    }

    function scheduleReconnect() {
      if (closing || reconnectTimer) return;
      reconnectTimer = setTimeout(() => {
        reconnectTimer = undefined;
        listening = connect().catch((err: unknown) => {
          app.log.warn({ err }, 'live-update connection failed; retrying');
          scheduleReconnect();
        });
      }, reconnectDelay);
      reconnectTimer.unref();
      reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
    }

    const heartbeat = setInterval(() => broadcast(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();

    function stream(request: FastifyRequest, reply: FastifyReply, options: { sales?: boolean } = {}) {
      const address = request.ip;
      const ofAddress = perAddress.get(address) ?? 0;
      if (clients.size >= limits.total || ofAddress >= limits.perAddress) {
        reply.header('retry-after', '60');
        sendProblem(
          reply,
          429,
          'TOO_MANY_STREAMS',
          'Too many live-update connections from here, please try again later.',
        );
        return;
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Reverse proxies (nginx) must not buffer the stream.
        'x-accel-buffering': 'no',
      });
      if (request.method === 'HEAD') {
        res.end();
        return;
      }
      res.socket?.setNoDelay(true);

      const client: Client = {
        write(chunk) {
          if (res.writableEnded || res.destroyed) return;
          if (res.writableLength > MAX_BUFFERED_BYTES) {
            res.destroy();
            return;
          }
          res.write(chunk);
        },
        end() {
          if (!res.writableEnded) res.end();
        },
        sales: options.sales === true,
      };
      clients.add(client);
      perAddress.set(address, ofAddress + 1);
      const cleanup = () => {
        if (!clients.delete(client)) return;
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      };
      request.raw.on('close', cleanup);
      res.on('close', cleanup);
      res.on('error', cleanup);
      client.write(`retry: 3000\nevent: ${LIVE_READY_EVENT}\ndata: {}\n\n`);
    }

    app.decorate('notifications', {
      stream,
      get clientCount() {
        return clients.size;
      },
      whenListening: async () => {
        await listening;
      },
      get listening() {
        return listener !== undefined;
      },
      onEventChange(fn) {
        changeListeners.push(fn);
      },
      onAccountChange(fn) {
        accountListeners.push(fn);
      },
    } satisfies Notifications);

    app.addHook('onReady', async () => {
      listening = connect().catch((err: unknown) => {
        app.log.warn({ err }, 'live-update connection failed; retrying');
        scheduleReconnect();
      });
      await listening;
    });

    // Open SSE streams would keep the HTTP server from closing: end them first.
    app.addHook('preClose', async () => {
      closing = true;
      clearInterval(heartbeat);
      for (const client of clients) client.end();
      clients.clear();
      perAddress.clear();
    });
    app.addHook('onClose', async () => {
      closing = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = listener;
      listener = undefined;
      await current?.end().catch(() => {});
    });
  },
  { name: 'notifications', dependencies: ['database'] },
);
