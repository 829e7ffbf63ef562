import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../db/schema';
import { setupTestApp } from '../test/helpers';
import { startTestSmtpServer } from '../test/smtp-server';
import { bookingConfirmationSubject, renderEmail } from './email-templates';
import {
  createMailTransport,
  deliverDueMail,
  enqueueMail,
  MAIL_MAX_ATTEMPTS,
  type MailRenderContext,
  type OutgoingMail,
  retryDelayMs,
} from './mailer';

const ctx = await setupTestApp();
const db = ctx.database.db;
const smtp = await startTestSmtpServer();
const transport = createMailTransport({ smtpUrl: smtp.url, mailFrom: 'Eventry <no-reply@eventry.test>' });
afterAll(async () => {
  transport?.close();
  await smtp.stop().catch(() => {});
  await ctx.close();
});

function mail(
  subject: string,
  overrides: Partial<Pick<OutgoingMail, 'kind' | 'to' | 'replyTo' | 'dedupeKey'>> = {},
): OutgoingMail {
  return {
    kind: 'test',
    to: 'someone@example.com',
    subject,
    text: `${subject} (text)`,
    html: `<p>${subject}</p>`,
    ...overrides,
  };
}

async function row(subject: string) {
  const [found] = await db.select().from(emailOutbox).where(eq(emailOutbox.subject, subject));
  if (!found) throw new Error(`no outbox row ${subject}`);
  return found;
}

/** Moves a pending email's next attempt into the past, as if its backoff had elapsed. */
async function makeDue(subject: string) {
  await db
    .update(emailOutbox)
    .set({ nextAttemptAt: sql`now() - interval '1 second'` })
    .where(eq(emailOutbox.subject, subject));
}

const received = (subject: string) => smtp.received.filter((m) => m.subject === subject);

describe('retry delays', () => {
  it('double from 5 seconds and stop growing at 10 minutes', () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(8)).toBe(600_000);
    expect(retryDelayMs(30)).toBe(600_000);
  });
});

describe('deliverDueMail', () => {
  it('sends a queued email with its text and HTML parts and marks it sent', async () => {
    await enqueueMail(db, {
      kind: 'verification',
      to: 'new@example.com',
      ...renderEmail('verification', { name: 'Mona', url: 'http://localhost:3000/verify?token=abc' }),
    });
    const result = await deliverDueMail(db, transport);
    expect(result).toMatchObject({ sent: 1, retried: 0 });
    const [got] = received('Eventry: verify your email address');
    expect(got?.envelopeTo).toEqual(['new@example.com']);
    expect(got?.text).toContain('http://localhost:3000/verify?token=abc');
    expect(got?.html).toContain('href="http://localhost:3000/verify?token=abc"');
    const stored = await row('Eventry: verify your email address');
    expect(stored.status).toBe('sent');
    expect(stored.sentAt).toBeInstanceOf(Date);
    expect(await deliverDueMail(db, transport)).toEqual({ sent: 0, logged: 0, retried: 0, failed: 0 });
  });

  it('renders an email queued as its data when it is sent, and stores only the data', async () => {
    const data = {
      name: 'Layla',
      title: 'Jazz <Night>',
      eventDate: '2026-11-27',
      startTime: '19:00:00',
      endTime: '22:00:00',
      quantity: 2,
      totalPiasters: 70_000,
    };
    await enqueueMail(db, {
      kind: 'booking-confirmation',
      to: 'layla@example.com',
      subject: 'Data-queued confirmation',
      data,
    });
    const stored = await row('Data-queued confirmation');
    expect(stored).toMatchObject({ text: null, html: null, data });
    expect(await deliverDueMail(db, transport)).toMatchObject({ sent: 1 });
    const [got] = received('Data-queued confirmation');
    expect(got?.envelopeTo).toEqual(['layla@example.com']);
    expect(got?.text).toContain('Hi Layla,');
    expect(got?.text).toContain('Your booking for Jazz <Night> is confirmed.');
    expect(got?.text).toContain('Date: Friday, Nov 27, 2026');
    expect(got?.text).toContain('Time: 07:00 PM - 10:00 PM');
    expect(got?.text).toContain('Tickets: 2 tickets');
    expect(got?.text).toContain('Total paid: 700 EGP');
    expect(got?.html).toContain('Jazz &lt;Night&gt;');
  });

  it("renders a confirmation queued with the buyer's language in it: Arabic, right to left", async () => {
    const data = {
      name: 'ليلى',
      title: 'Jazz <Night>',
      eventDate: '2026-11-27',
      startTime: '19:00:00',
      endTime: '22:30:00',
      quantity: 3,
      totalPiasters: 70_050,
      lang: 'ar',
    } as const;
    await enqueueMail(db, {
      kind: 'booking-confirmation',
      to: 'layla-ar@example.com',
      subject: bookingConfirmationSubject(data.title, 'ar'),
      data,
    });
    expect(await deliverDueMail(db, transport)).toMatchObject({ sent: 1 });
    const [got] = received('إيفنتري: تذاكرك لفعالية \u2068Jazz <Night>\u2069');
    expect(got?.text).toContain('مرحبًا \u2068ليلى\u2069،');
    expect(got?.text).toContain('تم تأكيد حجزك لفعالية \u2068Jazz <Night>\u2069.');
    expect(got?.text).toContain('التاريخ: يوم الجمعة، ٢٧ نوفمبر ٢٠٢٦');
    expect(got?.text).toContain('الوقت: من ٧:٠٠ م إلى ١٠:٣٠ م');
    expect(got?.text).toContain('التذاكر: ٣ تذاكر');
    expect(got?.text).toMatch(/المبلغ المدفوع: \u200f?٧٠٠٫٥٠\s?ج\.م\.\u200f?/);
    expect(got?.html).toContain('<html lang="ar" dir="rtl">');
    expect(got?.html).toContain(
      '<div dir="rtl" style="max-width:560px;margin:0 auto;padding:32px 24px;direction:rtl;text-align:right">',
    );
    expect(got?.html).toContain('<span dir="auto">Jazz &lt;Night&gt;</span>');
    expect(got?.html).toContain('تم تأكيد حجزك');
    expect(got?.html).not.toMatch(/Your booking|Total paid|Hi /);
  });

  it("gives a feature's render hook the email's language, English for data that names none", async () => {
    const seen: Array<{ lang: string; word: string }> = [];
    const hooks = new Map([
      [
        'booking-confirmation',
        async (_data: unknown, { lang, i18n }: MailRenderContext) => {
          seen.push({ lang, word: i18n.t('emails.booking.tickets') });
          return { html: `<p>extra ${lang}</p>`, text: `extra ${lang}` };
        },
      ],
    ]);
    const base = {
      name: 'Omar',
      title: 'Hook test',
      eventDate: '2026-11-27',
      startTime: '19:00',
      endTime: '22:00',
      quantity: 1,
      totalPiasters: 10_000,
    };
    await enqueueMail(db, { kind: 'booking-confirmation', to: 'o@example.com', subject: 'Hook en', data: base });
    await enqueueMail(db, {
      kind: 'booking-confirmation',
      to: 'o@example.com',
      subject: 'Hook ar',
      data: { ...base, lang: 'ar' },
    });
    expect(await deliverDueMail(db, transport, new Date(), undefined, hooks)).toMatchObject({ sent: 2 });
    // UPDATE … RETURNING hands back the claimed rows in no set order, so the hooks may run in either order.
    expect([...seen].sort((a, b) => a.lang.localeCompare(b.lang))).toEqual([
      { lang: 'ar', word: 'التذاكر' },
      { lang: 'en', word: 'Tickets' },
    ]);
    expect(received('Hook en')[0]?.text).toContain('Tickets: 1 ticket\nTotal paid: 100 EGP\n\nextra en');
    expect(received('Hook ar')[0]?.text).toContain('التذاكر: تذكرة واحدة');
    expect(received('Hook ar')[0]?.html).toContain('<p>extra ar</p>');
  });

  it('records data that does not fit its kind as a failed attempt instead of sending it', async () => {
    await enqueueMail(db, {
      kind: 'booking-confirmation',
      to: 'x@example.com',
      subject: 'Bad data',
      data: { title: 1 },
    });
    expect(await deliverDueMail(db, transport)).toMatchObject({ sent: 0, retried: 1 });
    expect(received('Bad data')).toHaveLength(0);
    expect((await row('Bad data')).lastError).toMatch(/title|expected/i);
    await db.delete(emailOutbox).where(eq(emailOutbox.subject, 'Bad data')); // not retried in the next tests
  });

  it('refuses a row with neither bodies nor data', async () => {
    await expect(
      ctx.database.pool.query(
        "INSERT INTO email_outbox (kind, to_address, subject) VALUES ('test', 'a@example.com', 'Bodiless')",
      ),
    ).rejects.toThrow(/email_outbox_body_check/);
  });

  it('keeps an email for later when it is queued in a transaction that rolls back', async () => {
    await db
      .transaction(async (tx) => {
        await enqueueMail(tx, mail('Rolled back'));
        throw new Error('abort');
      })
      .catch(() => {});
    await deliverDueMail(db, transport);
    expect(received('Rolled back')).toHaveLength(0);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.subject, 'Rolled back'))).toHaveLength(0);
  });

  it('retries with growing delays while SMTP is down and delivers exactly once when it is back', async () => {
    await smtp.stop();
    try {
      await enqueueMail(db, mail('Outage'));
      const t0 = new Date();
      expect(await deliverDueMail(db, transport, t0)).toMatchObject({ sent: 0, retried: 1 });
      let stored = await row('Outage');
      expect(stored).toMatchObject({ status: 'pending', attempts: 1 });
      expect(stored.lastError).toBeTruthy();
      expect(stored.nextAttemptAt.getTime()).toBe(t0.getTime() + 5_000);

      // Not due yet: nothing happens before the backoff elapses.
      expect(await deliverDueMail(db, transport, new Date(t0.getTime() + 4_000))).toMatchObject({ retried: 0 });

      const t1 = new Date(t0.getTime() + 5_000);
      expect(await deliverDueMail(db, transport, t1)).toMatchObject({ retried: 1 });
      stored = await row('Outage');
      expect(stored.attempts).toBe(2);
      expect(stored.nextAttemptAt.getTime()).toBe(t1.getTime() + 10_000);

      const t2 = new Date(t1.getTime() + 10_000);
      expect(await deliverDueMail(db, transport, t2)).toMatchObject({ retried: 1 });
      expect((await row('Outage')).nextAttemptAt.getTime()).toBe(t2.getTime() + 20_000);
    } finally {
      await smtp.start();
    }
    await makeDue('Outage');
    expect(await deliverDueMail(db, transport)).toMatchObject({ sent: 1 });
    expect(await deliverDueMail(db, transport, new Date(Date.now() + 3_600_000))).toMatchObject({ sent: 0 });
    expect(received('Outage')).toHaveLength(1);
    expect(await row('Outage')).toMatchObject({ status: 'sent', attempts: 4, lastError: null });
  });

  it(`gives up after ${MAIL_MAX_ATTEMPTS} failed attempts and marks the email failed`, async () => {
    const broken = createMailTransport({ smtpUrl: 'smtp://127.0.0.1:1', mailFrom: 'Eventry <no-reply@eventry.test>' });
    await enqueueMail(db, mail('Hopeless'));
    for (let i = 1; i <= MAIL_MAX_ATTEMPTS; i++) {
      await makeDue('Hopeless');
      await deliverDueMail(db, broken);
      expect((await row('Hopeless')).attempts).toBe(i);
    }
    expect(await row('Hopeless')).toMatchObject({ status: 'failed' });
    await makeDue('Hopeless');
    expect(await deliverDueMail(db, broken)).toEqual({ sent: 0, logged: 0, retried: 0, failed: 0 });
  });

  it('never sends the same email twice when several workers run at once', async () => {
    const subjects = Array.from({ length: 40 }, (_, i) => `Concurrent ${i}`);
    for (const subject of subjects) await enqueueMail(db, mail(subject));
    const worker = async () => {
      for (;;) {
        const r = await deliverDueMail(db, transport);
        if (r.sent + r.retried + r.failed === 0) return;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    for (const subject of subjects) expect(received(subject)).toHaveLength(1);
    const rows = await db.select().from(emailOutbox).where(sql`${emailOutbox.subject} LIKE 'Concurrent %'`);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('logs and keeps emails without sending them when SMTP is not configured', async () => {
    await enqueueMail(db, mail('Laptop only'));
    const lines: string[] = [];
    const result = await deliverDueMail(db, null, new Date(), {
      info: (obj, msg) => lines.push(`${JSON.stringify(obj)} ${msg}`),
      warn: () => {},
    });
    expect(result).toMatchObject({ logged: 1, sent: 0 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Laptop only');
    expect(lines[0]).toContain('someone@example.com');
    expect(await row('Laptop only')).toMatchObject({ status: 'logged', text: 'Laptop only (text)' });
    expect(received('Laptop only')).toHaveLength(0);
  });

  it('logs a backlog in batches, each email once, even with several workers at once', async () => {
    const subjects = Array.from({ length: 250 }, (_, i) => `Backlog ${i}`);
    for (const subject of subjects) await enqueueMail(db, mail(subject));
    const lines: string[] = [];
    const calls: number[] = [];
    const worker = async () => {
      for (;;) {
        const r = await deliverDueMail(db, null, new Date(), { info: (_obj, msg) => lines.push(msg), warn: () => {} });
        if (r.logged === 0) return;
        calls.push(r.logged);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    const rows = await db.select().from(emailOutbox).where(sql`${emailOutbox.subject} LIKE 'Backlog %'`);
    expect(rows).toHaveLength(250);
    expect(rows.every((r) => r.status === 'logged' && r.attempts === 1)).toBe(true);
    expect(lines).toHaveLength(250);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(250);
    expect(Math.max(...calls)).toBeGreaterThan(10);
    expect(received('Backlog 0')).toHaveLength(0);
  });

  it('queues at most one email per dedupe key', async () => {
    expect(await enqueueMail(db, mail('Once', { dedupeKey: 'booking-paid:1' }))).toBe(true);
    expect(await enqueueMail(db, mail('Once again', { dedupeKey: 'booking-paid:1' }))).toBe(false);
  });
});

describe('mail worker in the app', () => {
  it('delivers queued emails on its own when jobs run', async () => {
    const app = await setupTestApp({
      runJobs: true,
      config: { smtpUrl: smtp.url, mailFrom: 'Eventry <no-reply@eventry.test>' },
    });
    try {
      await enqueueMail(app.database.db, mail('From the worker'));
      for (let i = 0; i < 200 && received('From the worker').length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(received('From the worker')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
