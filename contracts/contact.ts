import { z } from 'zod';
import { contactMessages as contactSpecMessages } from './messages/contact';
import { withExampleEmail } from './messages/example-email';
import { cleanText, NOT_TEXT, requiredOr, visibleLength } from './text';

/**
 * The contact form, shared by the web form (feedback on submit) and the server (the rule).
 *
 * API body of POST /api/contact (JSON, unknown fields refused): name, email, subject, description.
 * Control characters are stripped (the description keeps line breaks and tabs), then every field is
 * trimmed and checked (contracts/text.ts). Errors come back as 400 problem+json with `errors: { field: message }`.
 * Answer: 201 `{ id }`. Anonymous visitors may send; the endpoint is rate-limited per IP.
 */

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, description: 5000 } as const;

const m = contactSpecMessages;

/** Texts of rules the spec does not word (limits and types). */
export const contactMessages = {
  tooLong: (max: number) => `Must be at most ${max} characters`,
  notText: NOT_TEXT,
} as const;

/** A simple address pattern: no spaces, quotes, brackets or separators that could split a mail header. */
export const CONTACT_EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

function text(required: string, keepLineBreaks = false) {
  return z.string({ error: requiredOr(required) }).transform((v) => cleanText(v, keepLineBreaks));
}

export const contactFormSchema = z.strictObject({
  name: text(m.nameRequired).pipe(
    z
      .string()
      .refine((v) => visibleLength(v) >= 1, { error: m.nameRequired, abort: true })
      .refine((v) => visibleLength(v) >= 3, { error: m.nameTooShort, abort: true })
      .max(CONTACT_LIMITS.name, { error: contactMessages.tooLong(CONTACT_LIMITS.name) }),
  ),
  email: text(m.emailRequired).pipe(
    z
      .string()
      .min(1, { error: m.emailRequired, abort: true })
      .max(CONTACT_LIMITS.email, { error: contactMessages.tooLong(CONTACT_LIMITS.email), abort: true })
      .regex(CONTACT_EMAIL_PATTERN, { error: withExampleEmail(m.emailInvalid) }),
  ),
  subject: text(m.subjectRequired).pipe(
    z
      .string()
      .refine((v) => visibleLength(v) >= 1, { error: m.subjectRequired, abort: true })
      .max(CONTACT_LIMITS.subject, { error: contactMessages.tooLong(CONTACT_LIMITS.subject) }),
  ),
  description: text(m.descriptionTooShort, true).pipe(
    z
      .string()
      .refine((v) => visibleLength(v) >= 20, { error: m.descriptionTooShort, abort: true })
      .max(CONTACT_LIMITS.description, { error: contactMessages.tooLong(CONTACT_LIMITS.description) }),
  ),
});
export type ContactFormInput = z.input<typeof contactFormSchema>;
export type ContactForm = z.output<typeof contactFormSchema>;
export type ContactField = keyof ContactForm;

export const contactResponseSchema = z.object({ id: z.uuid() });
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/** First message per field, the way the form shows them (empty object when valid). */
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
