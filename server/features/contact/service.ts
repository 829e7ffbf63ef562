import type { ContactForm, MailboxResponse } from '../../../contracts/contact';
import { MAILBOX_LIMIT } from '../../../contracts/contact';
import type { Lang } from '../../../contracts/i18n/languages';
import type { Db, DbOrTx } from '../../db/client';
import type { AppConfig } from '../../env';
import { renderContactEmail } from '../../plugins/email-templates';
import { accountLang, mailLang } from '../../plugins/mail-language';
import { enqueueMail, mailBodies } from '../../plugins/mailer';
import { findFirstAdminEmail, insertContactMessage, listLatestMail } from './repository';

export interface ContactServiceDeps {
  db: Db;
  config: Pick<AppConfig, 'contactTo' | 'mailFrom' | 'smtpUrl'>;
}

export interface ContactService {
  /**
   * Who receives contact messages: CONTACT_TO; when unset, the oldest admin account (they can read the
   * dev mailbox, and they run the site); with no admin either, the MAIL_FROM address.
   */
  contactRecipient(): Promise<string>;
  /**
   * Stores the message and queues its email in one transaction: both exist, or neither. The email is in the
   * language its recipient's account chose, else in `lang` (the sender's page's).
   */
  sendContactMessage(message: ContactForm, lang?: Lang): Promise<{ id: string }>;
  /** The latest emails for the admin mailbox. Bodies only of emails that were logged, never of sent ones. */
  getMailbox(): Promise<MailboxResponse>;
}

/** "Eventry <no-reply@x.org>" → "no-reply@x.org". */
function addressOf(mailbox: string): string {
  const match = /<([^<>]+)>\s*$/.exec(mailbox);
  return (match?.[1] ?? mailbox).trim();
}

/** A logged email's text as it would have been sent (rendered when it was queued as data). */
function logged(mail: Parameters<typeof mailBodies>[0]): { text: string; subject?: string } {
  try {
    const { text, subject } = mailBodies(mail);
    return { text, subject };
  } catch (error) {
    return { text: `(this email could not be rendered: ${error instanceof Error ? error.message : String(error)})` };
  }
}

export function createContactService({ db, config }: ContactServiceDeps): ContactService {
  async function contactRecipient(tx: DbOrTx): Promise<string> {
    if (config.contactTo) return config.contactTo;
    return (await findFirstAdminEmail(tx)) ?? addressOf(config.mailFrom);
  }

  return {
    contactRecipient: () => contactRecipient(db),

    sendContactMessage(message, lang) {
      return db.transaction(async (tx) => {
        const to = await contactRecipient(tx);
        const id = await insertContactMessage(tx, message);
        await enqueueMail(tx, {
          kind: 'contact',
          to,
          replyTo: message.email,
          dedupeKey: `contact:${id}`,
          ...renderContactEmail(message, mailLang(await accountLang(tx, { email: to }), lang)),
        });
        return { id };
      });
    },

    async getMailbox() {
      const rows = await listLatestMail(db, MAILBOX_LIMIT);
      return {
        delivery: config.smtpUrl ? 'smtp' : 'log',
        items: rows.map(({ html, data, ...row }) => {
          const shown = row.status === 'logged' ? logged({ ...row, html, data }) : undefined;
          return {
            ...row,
            // An email the database queued gets its subject when it is rendered (ticketing/sql/eventry_waitlist.sql).
            subject: shown?.subject ?? row.subject,
            text: shown ? shown.text : null,
            createdAt: row.createdAt.toISOString(),
            sentAt: row.sentAt ? row.sentAt.toISOString() : null,
          };
        }),
      };
    },
  };
}
