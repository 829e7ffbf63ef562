import type { DbOrTx } from '../db/client';
import { emailOutbox } from '../db/schema';

export interface OutgoingMail {
  kind: 'verification' | 'password-reset' | 'booking-confirmation' | 'contact' | (string & {});
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** At most one email is ever queued per key (e.g. `booking-paid:<id>`). */
  dedupeKey?: string;
}

/**
 * Queues an email in the outbox. Call it with the same transaction as the change that causes the email,
 * so that the email exists if and only if the change committed. The mail worker delivers it.
 * Returns false when an email with the same dedupe key was already queued.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<boolean> {
  const inserted = await db
    .insert(emailOutbox)
    .values({
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      replyTo: mail.replyTo ?? null,
      dedupeKey: mail.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning({ id: emailOutbox.id });
  return inserted.length > 0;
}
