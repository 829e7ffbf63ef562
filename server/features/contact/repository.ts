import { asc, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { contactMessages, emailOutbox, users } from '../../db/schema';

export async function insertContactMessage(
  db: DbOrTx,
  message: { name: string; email: string; subject: string; description: string },
): Promise<string> {
  const [row] = await db.insert(contactMessages).values(message).returning({ id: contactMessages.id });
  if (!row) throw new Error('insert into contact_messages returned no row');
  return row.id;
}

/** The email of the oldest admin account, if there is one. */
export async function findFirstAdminEmail(db: DbOrTx): Promise<string | undefined> {
  const [row] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.role, 'admin'))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  return row?.email;
}

export async function listLatestMail(db: DbOrTx, limit: number) {
  return db
    .select({
      id: emailOutbox.id,
      kind: emailOutbox.kind,
      to: emailOutbox.to,
      replyTo: emailOutbox.replyTo,
      subject: emailOutbox.subject,
      text: emailOutbox.text,
      html: emailOutbox.html,
      data: emailOutbox.data,
      status: emailOutbox.status,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: emailOutbox.createdAt,
      sentAt: emailOutbox.sentAt,
    })
    .from(emailOutbox)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(limit);
}
