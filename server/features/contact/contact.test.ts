import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { contactMessages, emailOutbox } from '../../db/schema';
import { createMailTransport, deliverDueMail, enqueueMail } from '../../plugins/mailer';
import { anotherProcess, setupTestApp } from '../../test/helpers';
import { startTestSmtpServer } from '../../test/smtp-server';
import { createContactService } from './service';

const ctx = await setupTestApp({ config: { contactTo: 'hosts@eventry.test' } });
const smtp = await startTestSmtpServer();
const transport = createMailTransport({ smtpUrl: smtp.url, mailFrom: 'Eventry <no-reply@eventry.test>' });
afterAll(async () => {
  transport?.close();
  await smtp.stop();
  await ctx.close();
});

const valid = {
  name: 'Nour Hany',
  email: 'nour@example.com',
  subject: 'Jazz night in Zamalek',
  description: 'A small jazz evening for about 80 guests, looking for a listing.',
};

/** Each test sends from its own address so the per-IP limit of one does not spill into another. */
function send(
  payload: unknown,
  remoteAddress = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  headers: Record<string, string> = {},
) {
  return ctx.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, remoteAddress, headers });
}
const randomAddress = () => `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe('POST /api/contact validation', () => {
  it('answers an empty form with every spec message', async () => {
    const res = await send({ name: '', email: '', subject: '', description: '' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Subject is required',
      description: 'Description must be at least 20 characters long',
    });
  });

  it('treats missing fields as required ones', async () => {
    const res = await send({});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({ name: 'Name is required', email: 'Email is required' });
  });

  it('needs a name of at least 3 characters', async () => {
    const res = await send({ ...valid, name: ' ab ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ name: 'Name must be at least 3 characters long' });
  });

  it('needs a valid email address', async () => {
    const res = await send({ ...valid, email: 'nour@example' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ email: 'Please enter a valid email address (e.g., name@example.com).' });
  });

  it('needs a subject', async () => {
    const res = await send({ ...valid, subject: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ subject: 'Subject is required' });
  });

  it('needs a description of at least 20 characters', async () => {
    const res = await send({ ...valid, description: 'Too short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ description: 'Description must be at least 20 characters long' });
  });

  it('refuses oversized fields, unknown fields and non-text values', async () => {
    const long = await send({ ...valid, description: 'd'.repeat(5001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual({ description: 'Must be at most 5000 characters' });
    const unknown = await send({ ...valid, role: 'admin' });
    expect(unknown.statusCode).toBe(400);
    const typed = await send({ ...valid, name: 12345 });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().errors).toEqual({ name: 'Must be text' });
    const huge = await send({ ...valid, description: 'x'.repeat(40_000) });
    expect(huge.statusCode).toBe(413);
    expect(await ctx.database.db.select().from(contactMessages)).toHaveLength(0);
  });
});

describe('POST /api/contact', () => {
  it('stores the message and queues one email to CONTACT_TO with reply-to set to the sender', async () => {
    const res = await send({ ...valid, name: '  Nour Hany ', subject: 'Jazz night\r\nBcc: x@evil.test' });
    expect(res.statusCode).toBe(201);
    const { id } = res.json() as { id: string };
    const [stored] = await ctx.database.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(stored).toMatchObject({ name: 'Nour Hany', email: valid.email, subject: 'Jazz night  Bcc: x@evil.test' });
    const [mail] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `contact:${id}`));
    expect(mail).toMatchObject({ kind: 'contact', to: 'hosts@eventry.test', replyTo: valid.email, status: 'pending' });
    expect(mail?.subject).toBe('Eventry contact: Jazz night  Bcc: x@evil.test');
  });

  it('delivers the message to the SMTP server with recipient, reply-to and every field', async () => {
    const res = await send({ ...valid, email: 'layla@example.org', subject: 'Food festival' });
    expect(res.statusCode).toBe(201);
    await deliverDueMail(ctx.database.db, transport);
    const mail = smtp.received.find((m) => m.subject === 'Eventry contact: Food festival');
    expect(mail).toBeDefined();
    expect(mail?.envelopeTo).toEqual(['hosts@eventry.test']);
    expect(mail?.envelopeFrom).toBe('no-reply@eventry.test');
    expect(mail?.replyTo).toBe('layla@example.org');
    for (const part of [mail?.text, mail?.html]) {
      expect(part).toContain('Nour Hany');
      expect(part).toContain('layla@example.org');
      expect(part).toContain('Food festival');
      expect(part).toContain(valid.description);
      expect(part).toContain('Eventry');
    }
  });

  it('sends what a user typed as text: HTML arrives escaped in the HTML part', async () => {
    const evil = '<img src=x onerror="alert(1)"> <b>bold</b> & <script>steal()</script>';
    const res = await send({ ...valid, name: '<i>Hacker</i>', subject: 'Escaping <test>', description: evil });
    expect(res.statusCode).toBe(201);
    await deliverDueMail(ctx.database.db, transport);
    const mail = smtp.received.find((m) => m.subject === 'Eventry contact: Escaping <test>');
    expect(mail?.html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(mail?.html).toContain('&lt;script&gt;steal()&lt;/script&gt;');
    expect(mail?.html).toContain('&lt;i&gt;Hacker&lt;/i&gt;');
    expect(mail?.html).not.toContain('<script>');
    expect(mail?.html).not.toContain('<img');
    expect(mail?.html).not.toContain('<i>Hacker');
    // The text part carries it verbatim: plain text cannot run anything.
    expect(mail?.text).toContain(evil);
  });

  it('limits each address to 5 messages a minute with a clear 429 problem', async () => {
    const address = '192.0.2.77';
    for (let i = 0; i < 5; i++) expect((await send({ ...valid, subject: `Flood ${i}` }, address)).statusCode).toBe(201);
    const limited = await send({ ...valid, subject: 'Flood 6' }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toContain('application/problem+json');
    expect(limited.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(limited.json().detail).toMatch(/^You have sent too many messages. Please wait \d+ seconds and try again.$/);
    // Another address is not affected.
    expect((await send({ ...valid, subject: 'Other sender' }, '192.0.2.78')).statusCode).toBe(201);
  });

  it('counts an address across every process of the database, not per process', async () => {
    const other = await anotherProcess(ctx);
    try {
      const address = '192.0.2.91';
      const viaOther = (subject: string) =>
        other.app.inject({
          method: 'POST',
          url: '/api/contact',
          payload: { ...valid, subject },
          remoteAddress: address,
        });
      for (let i = 0; i < 3; i++)
        expect((await send({ ...valid, subject: `Here ${i}` }, address)).statusCode).toBe(201);
      for (let i = 0; i < 2; i++) expect((await viaOther(`There ${i}`)).statusCode).toBe(201);
      expect((await viaOther('There 3')).statusCode).toBe(429);
      expect((await send({ ...valid, subject: 'Here 4' }, address)).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('counts each visitor behind a trusted proxy (TRUST_PROXY) by the forwarded address', async () => {
    const proxied = await setupTestApp({ config: { contactTo: 'hosts@eventry.test', trustProxy: ['10.9.9.9'] } });
    try {
      const viaProxy = (forwardedFor: string, subject: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/contact',
          payload: { ...valid, subject },
          remoteAddress: '10.9.9.9',
          headers: { 'x-forwarded-for': forwardedFor },
        });
      for (let i = 0; i < 5; i++) expect((await viaProxy('198.51.100.1', `Flood ${i}`)).statusCode).toBe(201);
      expect((await viaProxy('198.51.100.1', 'Flood 6')).statusCode).toBe(429);
      // Another visitor behind the same proxy has their own allowance.
      expect((await viaProxy('198.51.100.2', 'Other visitor')).statusCode).toBe(201);
      // An untrusted peer cannot choose its address by sending the header.
      const spoofed = (i: number) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/contact',
          payload: { ...valid, subject: `Spoof ${i}` },
          remoteAddress: '203.0.113.5',
          headers: { 'x-forwarded-for': `198.51.100.${100 + i}` },
        });
      for (let i = 0; i < 5; i++) expect((await spoofed(i)).statusCode).toBe(201);
      expect((await spoofed(5)).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});

describe('the contact form in Arabic', () => {
  const arabic = { cookie: 'lang=ar' };

  it('answers with Arabic messages and the same codes', async () => {
    const res = await send({ name: 'ab', email: 'nour@', subject: '', description: 'short' }, randomAddress(), arabic);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', detail: 'الطلب غير صالح' });
    expect(res.json().errors).toEqual({
      name: 'يجب ألا يقل الاسم عن ٣ أحرف',
      email: 'يُرجى إدخال بريد إلكتروني صحيح (مثل name@example.com).',
      subject: 'الموضوع مطلوب',
      description: 'يجب ألا يقل الوصف عن ٢٠ حرفًا',
    });
  });

  it('says how long to wait in Arabic when an address has sent too many', async () => {
    const address = '192.0.2.177';
    for (let i = 0; i < 5; i++)
      expect((await send({ ...valid, subject: `Ar ${i}` }, address, arabic)).statusCode).toBe(201);
    const limited = await send({ ...valid, subject: 'Ar 6' }, address, { 'accept-language': 'ar-EG' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.json().detail).toMatch(
      /^أرسلت رسائل كثيرة\. يُرجى الانتظار .*(ثانية|ثوانٍ|ثانيتين).* ثم المحاولة مرة أخرى\.$/,
    );
  });

  it("emails the team in the sender's language when the recipient has not chosen one", async () => {
    const res = await send({ ...valid, name: 'نور هاني', subject: 'أمسية عود' }, randomAddress(), arabic);
    expect(res.statusCode).toBe(201);
    while ((await deliverDueMail(ctx.database.db, transport)).sent > 0);
    const mail = smtp.received.find((m) => m.subject === 'رسالة تواصل على إيفنتري: \u2068أمسية عود\u2069');
    expect(mail?.envelopeTo).toEqual(['hosts@eventry.test']);
    expect(mail?.replyTo).toBe(valid.email);
    expect(mail?.text).toContain('الاسم: نور هاني\nالبريد الإلكتروني: nour@example.com\nالموضوع: أمسية عود');
    expect(mail?.text).toContain(`وصف الفعالية:\n${valid.description}`);
    expect(mail?.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail?.html).toContain('<strong>البريد الإلكتروني:</strong> <span dir="ltr">nour@example.com</span>');
  });

  it("emails the team in the language its account chose, whatever the sender's page", async () => {
    const team = await ctx.createUser({ email: `team-${randomUUID().slice(0, 6)}@example.com` });
    await ctx.database.db.execute(sql`UPDATE users SET language = 'en' WHERE id = ${team.id}`);
    const service = createContactService({
      db: ctx.database.db,
      config: { contactTo: team.email, mailFrom: 'Eventry <no-reply@eventry.test>', smtpUrl: undefined },
    });
    const { id } = await service.sendContactMessage({ ...valid, subject: 'Team language' }, 'ar');
    const [mail] = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `contact:${id}`));
    expect(mail?.subject).toBe('Eventry contact: Team language');
    expect(mail?.text).toMatch(/^New message from the Eventry contact form\./);
  });
});

describe('contact recipient', () => {
  it('is CONTACT_TO, else the oldest admin, else the MAIL_FROM address', async () => {
    const db = ctx.database.db;
    const mailFrom = 'Eventry <no-reply@eventry.test>';
    const contactRecipient = (config: { contactTo: string | undefined; mailFrom: string }) =>
      createContactService({ db, config: { ...config, smtpUrl: undefined } }).contactRecipient();
    expect(await contactRecipient({ contactTo: 'hosts@eventry.test', mailFrom })).toBe('hosts@eventry.test');
    expect(await contactRecipient({ contactTo: undefined, mailFrom })).toBe('no-reply@eventry.test');
    const admin = await ctx.createUser({ role: 'admin', email: `boss-${randomUUID().slice(0, 6)}@example.com` });
    await ctx.createUser({ role: 'admin' });
    expect(await contactRecipient({ contactTo: undefined, mailFrom })).toBe(admin.email);
  });
});

describe('GET /api/admin/mailbox', () => {
  it('is for admins only', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/mailbox' })).statusCode).toBe(401);
    const user = await ctx.createUser();
    expect((await ctx.request(user, { method: 'GET', url: '/api/admin/mailbox' })).statusCode).toBe(403);
  });

  it('lists the latest emails, newest first, with bodies of logged ones only', async () => {
    const admin = await ctx.createUser({ role: 'admin' });
    await send({ ...valid, subject: 'Mailbox check' });
    while (Object.values(await deliverDueMail(ctx.database.db, null)).some((n) => n > 0));
    const res = await ctx.request(admin, { method: 'GET', url: '/api/admin/mailbox' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { delivery: string; items: Array<Record<string, unknown>> };
    expect(body.delivery).toBe('log');
    expect(body.items.length).toBeLessThanOrEqual(50);
    const newest = body.items[0];
    expect(newest).toMatchObject({
      subject: 'Eventry contact: Mailbox check',
      status: 'logged',
      to: 'hosts@eventry.test',
    });
    expect(newest?.text).toContain(valid.description);
    expect(typeof newest?.createdAt).toBe('string');
    const sent = body.items.find((m) => m.status === 'sent');
    expect(sent).toBeDefined();
    expect(sent?.text).toBeNull();
    expect(body.items.map((m) => m.id)).toEqual([...body.items.map((m) => m.id as number)].sort((a, b) => b - a));
  });

  it('shows a logged booking confirmation rendered from the data it was queued with', async () => {
    const admin = await ctx.createUser({ role: 'admin' });
    await enqueueMail(ctx.database.db, {
      kind: 'booking-confirmation',
      to: 'buyer@example.com',
      subject: 'Eventry: your tickets for Mailbox Night',
      data: {
        name: 'Omar',
        title: 'Mailbox Night',
        eventDate: '2026-12-04',
        startTime: '20:00:00',
        endTime: '23:30:00',
        quantity: 1,
        totalPiasters: 15_000,
      },
    });
    while (Object.values(await deliverDueMail(ctx.database.db, null)).some((n) => n > 0));
    const res = await ctx.request(admin, { method: 'GET', url: '/api/admin/mailbox' });
    const entry = (res.json() as { items: Array<{ subject: string; text: string | null }> }).items.find(
      (m) => m.subject === 'Eventry: your tickets for Mailbox Night',
    );
    expect(entry?.text).toContain('Hi Omar,');
    expect(entry?.text).toContain('Date: Friday, Dec 4, 2026');
    expect(entry?.text).toContain('Time: 08:00 PM - 11:30 PM');
    expect(entry?.text).toContain('Total paid: 150 EGP');
  });
});
