import { and, desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { emailOutbox } from '../../db/schema';
import { mailBodies } from '../../plugins/mailer';
import type { TestContext } from '../../test/helpers';

/**
 * Small helpers shared by the accounts tests. Each call comes from its own client address, so
 * better-auth's per-IP limits only matter in the tests that are about them.
 */
let lastAddress = 0;
export function nextAddress(): string {
  lastAddress += 1;
  return `10.${(lastAddress >> 16) & 255}.${(lastAddress >> 8) & 255}.${lastAddress & 255}`;
}

export function postJson(
  ctx: TestContext,
  url: string,
  payload: unknown,
  options: { cookie?: string; address?: string } = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: options.cookie ? { cookie: options.cookie } : {},
    remoteAddress: options.address ?? nextAddress(),
  });
}

/** The `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((c) => c.split(';')[0]).join('; ');
}

let counter = 0;
export function uniqueEmail(prefix = 'person'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export const validSignUp = (email = uniqueEmail()) => ({
  firstName: 'Mona',
  lastName: 'Adel',
  email,
  password: 'Secret123',
});

/** The latest email of a kind queued for an address, and the first link in it. */
export async function latestMail(ctx: TestContext, to: string, kind: string) {
  const [mail] = await ctx.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, to), eq(emailOutbox.kind, kind)))
    .orderBy(desc(emailOutbox.id))
    .limit(1);
  if (!mail) return undefined;
  const link = /https?:\/\/\S+/.exec(mailBodies(mail).text)?.[0];
  return { ...mail, link };
}

/** A link from an email as a path the app can inject (it is built on APP_URL). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
