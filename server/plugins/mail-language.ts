import { sql } from 'drizzle-orm';
import { isLang, type Lang, langOfRequest } from '../../contracts/i18n/languages';
import type { DbOrTx } from '../db/client';

/**
 * The language of a person's emails: the one their account chose (users.language, set from the profile and
 * the language switch), else the language of the request that caused the email, else English.
 */
export function mailLang(chosen: unknown, requestLang: Lang | undefined): Lang {
  return isLang(chosen) ? chosen : (requestLang ?? 'en');
}

/** The language of a Fetch request (better-auth hands its email callbacks one): its cookie, else Accept-Language. */
export function fetchRequestLang(request: Request | undefined): Lang | undefined {
  if (!request) return undefined;
  return langOfRequest(request.headers.get('cookie') ?? undefined, request.headers.get('accept-language') ?? undefined);
}

/** The language an account chose for its emails, by id or by address; undefined for no account or no choice. */
export async function accountLang(db: DbOrTx, who: { id: string } | { email: string }): Promise<Lang | undefined> {
  const where = 'id' in who ? sql`u.id = ${who.id}` : sql`u.email = ${who.email.trim().toLowerCase()}`;
  const result = await db.execute<{ language: string | null }>(
    sql`SELECT u.language FROM users u WHERE ${where} LIMIT 1`,
  );
  const language = result.rows[0]?.language;
  return isLang(language) ? language : undefined;
}
