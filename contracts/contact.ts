import { z } from 'zod';
import { EXAMPLE_EMAIL } from './example-email';
import { msg } from './i18n/text';
import type { MessageKey } from './i18n/types';
import { cleanText, requiredOr, visibleLength } from './text';

/**
 * The contact form, shared by the web form (feedback on submit) and the server (the rule).
 *
 * API body of POST /api/contact (JSON, unknown fields refused): name, email, subject, description.
 * Control characters are stripped (the description keeps line breaks and tabs), then every field is
 * trimmed and checked (contracts/text.ts). Errors come back as 400 problem+json with `errors: { field: message }`,
 * in the request's language. The schema's messages are keys of the `contact` namespace (contracts/i18n), which
 * the form and the server translate.
 * Answer: 201 `{ id }`. Anonymous visitors may send; the endpoint is rate-limited per IP.
 */

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, description: 5000 } as const;

const tooLong = (max: number) => msg('contact.tooLong', { max });

/** A simple address pattern: no spaces, quotes, brackets or separators that could split a mail header. */
export const CONTACT_EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

function text(required: MessageKey, keepLineBreaks = false) {
  return z.string({ error: requiredOr(required) }).transform((v) => cleanText(v, keepLineBreaks));
}

export const contactFormSchema = z.strictObject({
  name: text('contact.nameRequired').pipe(
    z
      .string()
      .refine((v) => visibleLength(v) >= 1, { error: 'contact.nameRequired', abort: true })
      .refine((v) => visibleLength(v) >= 3, { error: 'contact.nameTooShort', abort: true })
      .max(CONTACT_LIMITS.name, { error: tooLong(CONTACT_LIMITS.name) }),
  ),
  email: text('contact.emailRequired').pipe(
    z
      .string()
      .min(1, { error: 'contact.emailRequired', abort: true })
      .max(CONTACT_LIMITS.email, { error: tooLong(CONTACT_LIMITS.email), abort: true })
      .regex(CONTACT_EMAIL_PATTERN, { error: msg('contact.emailInvalid', { email: EXAMPLE_EMAIL }) }),
  ),
  subject: text('contact.subjectRequired').pipe(
    z
      .string()
      .refine((v) => visibleLength(v) >= 1, { error: 'contact.subjectRequired', abort: true })
      .max(CONTACT_LIMITS.subject, { error: tooLong(CONTACT_LIMITS.subject) }),
  ),
  description: text('contact.descriptionTooShort', true).pipe(
    z
      .string()
      .refine((v) => visibleLength(v) >= 20, { error: 'contact.descriptionTooShort', abort: true })
      .max(CONTACT_LIMITS.description, { error: tooLong(CONTACT_LIMITS.description) }),
  ),
});
export type ContactFormInput = z.input<typeof contactFormSchema>;
export type ContactForm = z.output<typeof contactFormSchema>;
export type ContactField = keyof ContactForm;

export const contactResponseSchema = z.object({ id: z.uuid() });
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/**
 * First message per field, the way the form shows them (empty object when valid): a key, or a key with its
 * values, which `I18n.text` words in the page's language.
 */
export function contactFieldErrors(input: unknown): Partial<Record<ContactField, string>> {
  const parsed = contactFormSchema.safeParse(input);
  if (parsed.success) return {};
  const errors: Partial<Record<ContactField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in contactFormSchema.shape && !(field in errors)) {
      errors[field as ContactField] = issue.message;
    }
  }
  return errors;
}

/**
 * GET /api/admin/mailbox (admins): the latest emails of the outbox, newest first. The body (`text`) is
 * shown only for emails that were logged instead of sent (no SMTP_URL: the laptop's dev mailbox);
 * mail that went out over SMTP shows its status but not its content (reset links are not for admins).
 */
export const MAILBOX_LIMIT = 50;
export const mailboxEntrySchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  to: z.string(),
  replyTo: z.string().nullable(),
  subject: z.string(),
  text: z.string().nullable(),
  status: z.enum(['pending', 'sent', 'failed', 'logged']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type MailboxEntry = z.infer<typeof mailboxEntrySchema>;
export const mailboxResponseSchema = z.object({
  /** 'smtp' when SMTP_URL is set, otherwise 'log' (emails are kept here instead of sent). */
  delivery: z.enum(['smtp', 'log']),
  items: z.array(mailboxEntrySchema),
});
export type MailboxResponse = z.infer<typeof mailboxResponseSchema>;
