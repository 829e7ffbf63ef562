import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { i18nOf } from '../../contracts/i18n/all';
import type { I18n } from '../../contracts/i18n/i18n';
import type { Lang } from '../../contracts/i18n/languages';
import type { Db, DbOrTx } from '../db/client';
import type { AppConfig } from '../env';
import { renderStoredMail, storedMailLang } from './email-templates';

/** NOTIFY channel of new outbox rows: lets the worker send at once instead of at its next poll. */
export const MAIL_CHANNEL = 'eventry_mail';

interface MailHead {
  kind: 'verification' | 'password-reset' | 'booking-confirmation' | 'contact' | (string & {});
  to: string;
  subject: string;
  replyTo?: string;
  /** At most one email is ever queued per key (e.g. `booking-paid:<id>`). */
  dedupeKey?: string;
}

/**
 * An email to queue: with its bodies, or (kinds that renderStoredMail knows) with the data they are
 * rendered from when the email is delivered or shown, which keeps the outbox row small. Either way it is in
 * its recipient's language: bodies are rendered in it before they are queued; data names it as `lang`
 * ('en' | 'ar'; English when absent, as in emails queued before there were two languages), and so must the
 * subject, which is stored as it is given.
 */
export type OutgoingMail = MailHead &
  ({ text: string; html: string; data?: undefined } | { data: object; text?: undefined; html?: undefined });

/** A file sent with an email; with a `cid`, an image the HTML shows inline (`<img src="cid:…">`). */
export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType: string;
  cid?: string;
}

/** What a feature adds to an email rendered from its data: a block of the body, and attachments. */
export interface MailExtras {
  html?: string;
  text?: string;
  attachments?: MailAttachment[];
}

/** The language an email queued as data is rendered in, for what a feature adds to it. */
export interface MailRenderContext {
  /** The data's `lang`, English when it names none. */
  lang: Lang;
  /** Every message and format of that language (`i18n.t('tickets.…')`, `i18n.date(…)`). */
  i18n: I18n;
}

/**
 * Adds to the emails of one kind when they are delivered (the mailer is cross-cutting and imports no
 * feature: a feature registers what it adds with `app.mailer.onRender`). It gets the stored data and the
 * email's language (its texts must be in it); it may read the database, and a throw makes the delivery a
 * failed attempt that is retried.
 */
export type MailRenderHook = (data: unknown, context: MailRenderContext) => Promise<MailExtras | undefined>;

/** The language of an email queued as data, for its render hook. */
export function mailRenderContext(data: unknown): MailRenderContext {
  const lang = storedMailLang(data);
  return { lang, i18n: i18nOf(lang) };
}

/** The hooks registered per mail kind; the worker asks them when it delivers an email of that kind. */
export type MailRenderHooks = ReadonlyMap<string, MailRenderHook>;

declare module 'fastify' {
  interface FastifyInstance {
    mailer: {
      /** Registers what emails of this kind (stored as data) get when they are delivered. One hook per kind. */
      onRender(kind: OutgoingMail['kind'], hook: MailRenderHook): void;
    };
  }
}

/** An outbox row's bodies: stored as they are, or rendered from its data (with a feature's extras). */
export function mailBodies(
  mail: { kind: string; text: string | null; html: string | null; data: unknown },
  extras?: MailExtras,
): {
  subject?: string;
  text: string;
  html: string;
} {
  if (mail.text !== null && mail.html !== null) return { text: mail.text, html: mail.html };
  return renderStoredMail(mail.kind, mail.data, extras);
}

const OUTBOX_COLUMNS = sql`(kind, to_address, subject, text_body, html_body, data, reply_to, dedupe_key, next_attempt_at)`;
// Due at once, in whole milliseconds: the worker compares with JavaScript Dates (milliseconds), and
// PostgreSQL's microseconds would make a Date taken in the same millisecond look too early.
const DUE_NOW = sql`date_trunc('milliseconds', now())`;

/**
 * Queues an email in the outbox. Call it with the same transaction as the change that causes the email,
 * so that the email exists if and only if the change committed. The mail worker delivers it.
 * Returns false when an email with the same dedupe key was already queued.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<boolean> {
  const inserted = await db.execute(
    // pg_notify wakes the mail workers once the transaction commits (nothing is sent if it rolls back).
    sql`INSERT INTO email_outbox ${OUTBOX_COLUMNS}
        VALUES (${mail.kind}, ${mail.to}, ${mail.subject}, ${mail.text ?? null}, ${mail.html ?? null},
                ${mail.data === undefined ? null : JSON.stringify(mail.data)}::jsonb, ${mail.replyTo ?? null},
                ${mail.dedupeKey ?? null}, ${DUE_NOW})
        ON CONFLICT (dedupe_key) DO NOTHING RETURNING id, pg_notify(${MAIL_CHANNEL}, '')`,
  );
  return inserted.rows.length > 0;
}

/**
 * Wakes the mail workers (they LISTEN on MAIL_CHANNEL). Run inside a transaction, it is delivered when the
 * transaction commits; run on its own after a commit, it keeps that commit free of NOTIFY's cost: PostgreSQL
 * serializes the commits of all notifying transactions of a database (a lock held through the WAL flush),
 * and every reservation batch notifies its event's change. A wake-up lost to a crash is made up by the
 * worker's poll (every second).
 */
export const WAKE_MAIL_WORKERS = sql`SELECT pg_notify(${MAIL_CHANNEL}, '')`;

/**
 * A change and its emails as one statement: `change` is an UPDATE … RETURNING a text column `key`, and the
 * email of each key it returns is queued (once per dedupe key). The statement returns the changed keys.
 * Every text of the emails is an array parameter, so the statement's text is the same for any number of
 * emails (it can be a prepared statement). It does not wake the workers: run WAKE_MAIL_WORKERS after it.
 */
export function enqueueMailsAfter(mails: Array<OutgoingMail & { key: string }>, change: SQL): SQL {
  type Keyed = OutgoingMail & { key: string };
  const column = (pick: (mail: Keyed) => string | undefined) => sql.param(mails.map((mail) => pick(mail) ?? null));
  return sql`WITH done AS (${change}),
    queued AS (
      INSERT INTO email_outbox ${OUTBOX_COLUMNS}
      SELECT m.kind, m.to_address, m.subject, m.text_body, m.html_body, m.data::jsonb, m.reply_to, m.dedupe_key, ${DUE_NOW}
        FROM unnest(${column((m) => m.key)}::text[], ${column((m) => m.kind)}::text[], ${column((m) => m.to)}::text[],
                    ${column((m) => m.subject)}::text[], ${column((m) => m.text)}::text[],
                    ${column((m) => m.html)}::text[], ${column((m) => (m.data === undefined ? undefined : JSON.stringify(m.data)))}::text[],
                    ${column((m) => m.replyTo)}::text[], ${column((m) => m.dedupeKey)}::text[])
               AS m(key, kind, to_address, subject, text_body, html_body, data, reply_to, dedupe_key)
        JOIN done ON done.key = m.key
      ON CONFLICT (dedupe_key) DO NOTHING
      RETURNING id
    )
    SELECT done.key, (SELECT count(*) FROM queued) AS queued FROM done`;
}

// ---------------------------------------------------------------------------
// Delivery
// ---------------------------------------------------------------------------

/** What the worker needs from nodemailer (a Transporter fits); null means "log and keep, do not send". */
export interface MailTransport {
  sendMail(message: {
    to: string;
    replyTo?: string;
    subject: string;
    text: string;
    html: string;
    headers?: Record<string, string>;
    attachments?: MailAttachment[];
  }): Promise<unknown>;
}

export const MAIL_BATCH_SIZE = 10;
/** Emails marked 'logged' per statement when there is no SMTP server (nothing is sent, so more at once). */
const LOGGED_BATCH_SIZE = 500;
/**
 * Deliveries woken by notifications start at most this often: during an on-sale every payment batch
 * notifies, and a delivery per notification would commit as often as the payments do, competing with
 * them for the WAL flush. An email waits at most this long for its turn (or the one-second poll).
 */
export const NUDGE_GAP_MS = 250;
export const MAIL_MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 10 * 60_000;
/**
 * A claimed email is invisible to other workers for this long. It must outlast one SMTP exchange (the
 * transport's timeouts add up to well under a minute); if the process dies mid-send, the email is retried
 * after the lease instead of being lost.
 */
const CLAIM_LEASE_MS = 2 * 60_000;

/** Wait before the next attempt after `attempts` failed ones: 5 s, 10 s, 20 s … capped at 10 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export interface DeliveryResult {
  sent: number;
  logged: number;
  retried: number;
  failed: number;
}

interface ClaimedMail {
  id: number;
  kind: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  data: unknown;
  attempts: number;
}

interface DeliveryLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
const silent: DeliveryLog = { info: () => {}, warn: () => {} };

/** The ids of up to `limit` emails due at `now`, oldest first, locked, skipping those another worker holds. */
function dueMail(now: Date, limit: number): SQL {
  return sql`SELECT id FROM email_outbox
              WHERE status = 'pending' AND next_attempt_at <= ${now.toISOString()}
              ORDER BY next_attempt_at, id
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED`;
}

/**
 * Delivers one batch of due emails and returns what happened. Each email is first claimed in a short
 * transaction (`FOR UPDATE SKIP LOCKED`, then its next attempt is pushed past a lease), so any number of
 * workers in any number of processes can run this at once and no email is ever handed to two of them.
 * The SMTP exchange happens outside any transaction. With `transport` null the emails are marked
 * 'logged' (one log line each) and kept for the admin mailbox.
 */
export async function deliverDueMail(
  db: Db,
  transport: MailTransport | null,
  now: Date = new Date(),
  log: DeliveryLog = silent,
  hooks: MailRenderHooks = new Map(),
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, logged: 0, retried: 0, failed: 0 };
  if (!transport) {
    // Nothing leaves the process, so there is nothing to lease: claiming and logging is one statement and
    // one commit for the whole batch (one commit per email was most of the worker's cost during an on-sale).
    const logged = await db.execute<Pick<ClaimedMail, 'id' | 'kind' | 'to' | 'subject'> & Record<string, unknown>>(sql`
      UPDATE email_outbox
         SET attempts = attempts + 1, status = 'logged', last_error = NULL
       WHERE id IN (${dueMail(now, LOGGED_BATCH_SIZE)})
      RETURNING id, kind, to_address AS "to", subject`);
    for (const mail of logged.rows) {
      log.info(
        { mailId: mail.id, kind: mail.kind, to: mail.to, subject: mail.subject },
        'email logged (SMTP_URL is not set): read it at /admin/mailbox',
      );
    }
    result.logged = logged.rows.length;
    return result;
  }
  const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS);
  const claimed = await db.execute<ClaimedMail & Record<string, unknown>>(sql`
    UPDATE email_outbox
       SET attempts = attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}
     WHERE id IN (${dueMail(now, MAIL_BATCH_SIZE)})
    RETURNING id, kind, to_address AS "to", reply_to AS "replyTo", subject, text_body AS "text",
              html_body AS "html", data, attempts`);

  for (const mail of claimed.rows) {
    try {
      const hook = mail.text === null ? hooks.get(mail.kind) : undefined;
      const extras = hook ? await hook(mail.data, mailRenderContext(mail.data)) : undefined;
      await transport.sendMail({
        to: mail.to,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        ...mailBodies(mail, extras),
        headers: { 'X-Eventry-Mail-Id': String(mail.id) },
        ...(extras?.attachments?.length ? { attachments: extras.attachments } : {}),
      });
      await db.execute(
        sql`UPDATE email_outbox SET status = 'sent', sent_at = now(), last_error = NULL WHERE id = ${mail.id}`,
      );
      result.sent++;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      if (mail.attempts >= MAIL_MAX_ATTEMPTS) {
        await db.execute(sql`UPDATE email_outbox SET status = 'failed', last_error = ${message} WHERE id = ${mail.id}`);
        log.warn({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts, err: message }, 'email given up');
        result.failed++;
      } else {
        const next = new Date(now.getTime() + retryDelayMs(mail.attempts));
        await db.execute(
          sql`UPDATE email_outbox SET last_error = ${message}, next_attempt_at = ${next.toISOString()} WHERE id = ${mail.id}`,
        );
        log.warn({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts, err: message }, 'email will be retried');
        result.retried++;
      }
    }
  }
  return result;
}

/** The SMTP transport of SMTP_URL, or null when mail is only logged. */
export function createMailTransport(config: Pick<AppConfig, 'smtpUrl' | 'mailFrom'>) {
  if (!config.smtpUrl) return null;
  return nodemailer.createTransport(
    { url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 },
    { from: config.mailFrom },
  );
}

/**
 * The mail worker: delivers the outbox every second (a cheap query on the partial index of pending
 * emails) and right away when a new email is committed (LISTEN on MAIL_CHANNEL; polling alone still
 * works if that connection is lost). It runs under the scheduler's advisory lock; FOR UPDATE SKIP LOCKED
 * keeps it exactly-once even without that lock.
 */
export const mailWorkerPlugin = fp(
  async function mailWorker(app: FastifyInstance, opts: { config: Pick<AppConfig, 'smtpUrl' | 'mailFrom'> }) {
    const transport = createMailTransport(opts.config);
    const hooks = new Map<string, MailRenderHook>();
    app.decorate('mailer', {
      onRender(kind: string, hook: MailRenderHook) {
        if (hooks.has(kind)) throw new Error(`emails of kind ${kind} already have a render hook`);
        hooks.set(kind, hook);
      },
    });
    const log: DeliveryLog = {
      info: (obj, msg) => app.log.info(obj, msg),
      warn: (obj, msg) => app.log.warn(obj, msg),
    };
    let closing = false;
    let listener: pg.Client | undefined;
    let reconnect: NodeJS.Timeout | undefined;
    let nudged: Promise<unknown> | undefined;
    let lastNudge = 0;
    let nudgeLater: NodeJS.Timeout | undefined;

    async function deliver() {
      // Drain a backlog in consecutive batches, but give the lock back now and then.
      for (let batch = 0; batch < 10; batch++) {
        const r = await deliverDueMail(app.database.db, transport, new Date(), log, hooks);
        if (r.sent + r.logged + r.retried + r.failed < MAIL_BATCH_SIZE) break;
      }
    }

    function nudge() {
      if (closing || nudged || nudgeLater) return;
      const wait = lastNudge + NUDGE_GAP_MS - Date.now();
      if (wait > 0) {
        nudgeLater = setTimeout(() => {
          nudgeLater = undefined;
          nudge();
        }, wait);
        return;
      }
      lastNudge = Date.now();
      nudged = app.scheduler
        .runNow('mail-delivery', deliver)
        .catch((err: unknown) => app.log.warn({ err }, 'mail delivery after a notification failed'))
        .finally(() => {
          nudged = undefined;
        });
    }

    function listen() {
      if (closing || listener) return;
      const client = new pg.Client(app.database.connection);
      listener = client;
      const retry = () => {
        if (listener !== client) return;
        listener = undefined;
        client.end().catch(() => {});
        if (!closing) reconnect = setTimeout(listen, 5_000).unref();
      };
      client.on('error', retry);
      client.on('end', retry);
      client.on('notification', nudge);
      client
        .connect()
        .then(() => client.query(`LISTEN ${MAIL_CHANNEL}`))
        .catch(retry);
    }

    // Only processes that run jobs listen: the first scheduled run starts the listener.
    app.scheduler.every('mail-delivery', 1_000, async () => {
      listen();
      await deliver();
    });
    app.addHook('onClose', async () => {
      closing = true;
      clearTimeout(reconnect);
      clearTimeout(nudgeLater);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      await nudged;
      transport?.close();
    });
  },
  { name: 'mail-worker', dependencies: ['scheduler', 'database'] },
);
