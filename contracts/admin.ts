import { z } from 'zod';
import { categorySchema, eventSchema, pageQueryParam, pageSchema } from './catalogue';
import { DEFAULT_CATEGORY_ID, PIASTERS_PER_POUND } from './constants';
import { isValidDate } from './dates';
import { msg } from './i18n/text';
import type { MessageKey } from './i18n/types';
import { CANCELLATION_FEE_DEFAULT, REFUND_HOURS_DEFAULT, REFUND_HOURS_MAX } from './refunds';
import { cleanText, requiredOr, visibleLength } from './text';

/**
 * The admin's event form, shared by the web form (instant feedback) and the server (the rule).
 *
 * API body of POST /api/admin/events and PUT /api/admin/events/:id (JSON, unknown fields refused):
 * - title, host, location, description: text, cleaned and trimmed (contracts/text.ts: no control or bidi
 *   override characters; the description keeps its line breaks); the title is stored as typed (case kept).
 * - price: EGP as a decimal string or number with at most 2 decimals ("150", "99.5", 120.25);
 *   the server stores integer piasters (pricePiasters = price × 100).
 * - tickets: the capacity, a whole number. Available tickets follow: capacity − held − sold.
 * - categoryId: an existing category id; optional, defaults to DEFAULT_CATEGORY_ID.
 * - startDate, endDate, eventDate: 'YYYY-MM-DD'; startDate ≤ endDate ≤ eventDate.
 *   "Today" is the calendar date in APP_TIMEZONE. A new start date must be today or later; on edit an
 *   unchanged start date may stay in the past (an ongoing event can still be corrected).
 * - startTime, endTime: 24-hour 'HH:MM', the hour may be typed with one digit ('9:30' is stored as '09:30');
 *   shown to the public in 12-hour form.
 * - imageUrl: a URL returned by POST /api/admin/uploads (/uploads/eventImg/<uuid>.webp).
 * - Digits may be typed as Arabic-Indic ('١٥٠', '١٩:٣٠'), and '٫' as the decimal point: they are read as 0-9 and '.'.
 * Errors come back as 400 problem+json with `errors: { field: message }`, the same messages as here: message
 * keys (contracts/i18n, namespaces eventForm and admin), which the server and the form show in the page's language.
 */

export const MAX_PRICE_EGP = 1_000_000;
export const MAX_TICKETS = 100_000;
export const EVENT_IMAGE_URL_PATTERN = /^\/uploads\/eventImg\/[0-9a-f-]{36}\.webp$/;
/** 24-hour time, hours 0-23 (one or two digits) and minutes 00-59. */
const TIME_24H = /^([01]?\d|2[0-3]):[0-5]\d$/;
const PRICE_PATTERN = /^\d+(\.\d+)?$/;
const NUMBER_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A text field, cleaned as contracts/text.ts says (the description keeps its line breaks). */
function requiredText(required: MessageKey, max: number, multiLine = false) {
  return z
    .string({ error: requiredOr(required) })
    .transform((value) => cleanText(value, multiLine))
    .superRefine((value, ctx) => {
      if (visibleLength(value) === 0) ctx.addIssue({ code: 'custom', message: required });
      else if (value.length > max) ctx.addIssue({ code: 'custom', message: msg('admin.tooLong', { max }) });
    });
}

const numberish = (required: MessageKey) => z.union([z.string(), z.number()], { error: required });

const ARABIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9\u066b]/g;

/** '١٥٠٫٥' → '150.5': Arabic-Indic digits (and the Arabic decimal point) as a phone's Arabic keyboard types them. */
function westernDigits(text: string): string {
  return text.replace(ARABIC_DIGITS, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x066b) return '.';
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

/** '+.5' → '0.5', ' 12. ' → '12': one spelling for every way of writing the same number. */
function textOf(value: string | number): string {
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : 'NaN') : westernDigits(value.trim());
  if (!NUMBER_PATTERN.test(text)) return text;
  text = text.replace(/^\+/, '');
  if (text.startsWith('.')) text = `0${text}`;
  if (text.endsWith('.')) text = text.slice(0, -1);
  return text;
}

const priceField = numberish('eventForm.priceRequired').superRefine((value, ctx) => {
  const text = textOf(value);
  if (text === '') return void ctx.addIssue({ code: 'custom', message: 'eventForm.priceRequired' });
  if (!NUMBER_PATTERN.test(text)) return void ctx.addIssue({ code: 'custom', message: 'eventForm.priceNumber' });
  const amount = Number(text);
  if (!(amount > 0)) return void ctx.addIssue({ code: 'custom', message: 'eventForm.pricePositive' });
  if (!PRICE_PATTERN.test(text) || (text.split('.')[1]?.length ?? 0) > 2) {
    return void ctx.addIssue({ code: 'custom', message: 'admin.priceDecimals' });
  }
  if (amount > MAX_PRICE_EGP) ctx.addIssue({ code: 'custom', message: 'admin.priceTooHigh' });
});

const ticketsField = numberish('eventForm.ticketsRequired').superRefine((value, ctx) => {
  const text = textOf(value);
  if (text === '') return void ctx.addIssue({ code: 'custom', message: 'eventForm.ticketsRequired' });
  if (!NUMBER_PATTERN.test(text)) return void ctx.addIssue({ code: 'custom', message: 'eventForm.ticketsNumber' });
  const amount = Number(text);
  if (!(amount > 0)) return void ctx.addIssue({ code: 'custom', message: 'eventForm.ticketsPositive' });
  if (!Number.isInteger(amount)) return void ctx.addIssue({ code: 'custom', message: 'admin.ticketsWhole' });
  if (amount > MAX_TICKETS) ctx.addIssue({ code: 'custom', message: 'admin.ticketsTooMany' });
});

function optionalWhole(value: string | number | undefined, fallback: number): number {
  const text = value === undefined ? '' : textOf(value);
  return text === '' ? fallback : Number(text);
}

/** A whole number from `min` to `max`, optional (its default then): the refund policy's fields. */
function wholeField(min: number, max: number, invalid: MessageKey) {
  return numberish(invalid)
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      const text = textOf(value);
      if (text === '') return;
      const amount = Number(text);
      if (!/^\d+$/.test(text) || amount < min || amount > max) ctx.addIssue({ code: 'custom', message: invalid });
    });
}

function dateField(required: MessageKey) {
  return z
    .string({ error: requiredOr(required) })
    .trim()
    .superRefine((value, ctx) => {
      if (value === '') ctx.addIssue({ code: 'custom', message: required });
      else if (!isValidDate(value)) ctx.addIssue({ code: 'custom', message: 'eventForm.invalidDate' });
    });
}

function timeField(required: MessageKey, invalid: MessageKey) {
  return (
    z
      .string({ error: requiredOr(required) })
      .trim()
      .transform(westernDigits)
      .superRefine((value, ctx) => {
        if (value === '') ctx.addIssue({ code: 'custom', message: required });
        else if (!TIME_24H.test(value)) ctx.addIssue({ code: 'custom', message: invalid });
      })
      // '9:30' is stored and shown as '09:30'.
      .transform((value) => value.padStart(5, '0'))
  );
}

/** '150.5' → 15050. Only call on a value the schema accepted. */
export function egpToPiasters(value: string | number): number {
  const [whole = '0', fraction = ''] = textOf(value).split('.');
  return Number(whole) * PIASTERS_PER_POUND + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** 15050 → '150.5': the form's value for a stored price. */
export function piastersToEgpInput(piasters: number): string {
  return String(piasters / PIASTERS_PER_POUND);
}

export interface EventInputOptions {
  /** On edit: the stored start date, which may stay as it is even when it has passed. */
  currentStartDate?: string;
}

/**
 * The event form's rules for a given "today" ('YYYY-MM-DD' in APP_TIMEZONE). Parses the form's
 * values (strings) or the API's JSON and yields the stored shape (piasters, capacity).
 */
export function eventInputSchema(today: string, options: EventInputOptions = {}) {
  return z
    .strictObject(
      {
        title: requiredText('eventForm.titleRequired', 120),
        host: requiredText('eventForm.hostRequired', 120),
        location: requiredText('eventForm.locationRequired', 200),
        price: priceField,
        tickets: ticketsField,
        refundHours: wholeField(0, REFUND_HOURS_MAX, 'eventForm.refundHoursInvalid'),
        cancellationFee: wholeField(0, 100, 'eventForm.cancellationFeeInvalid'),
        categoryId: z.string().trim().max(64).optional(),
        startDate: dateField('eventForm.startDateRequired'),
        endDate: dateField('eventForm.endDateRequired'),
        eventDate: dateField('eventForm.eventDateRequired'),
        startTime: timeField('eventForm.startTimeRequired', 'eventForm.startTimeInvalid'),
        endTime: timeField('eventForm.endTimeRequired', 'eventForm.endTimeInvalid'),
        description: requiredText('eventForm.descriptionRequired', 5000, true),
        imageUrl: z
          .string({ error: requiredOr('eventForm.imageRequired') })
          .trim()
          .superRefine((value, ctx) => {
            if (value === '') ctx.addIssue({ code: 'custom', message: 'eventForm.imageRequired' });
            else if (!EVENT_IMAGE_URL_PATTERN.test(value)) {
              ctx.addIssue({ code: 'custom', message: 'admin.imageInvalid' });
            }
          }),
      },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? 'admin.unknownField' : undefined) },
    )
    .superRefine((v, ctx) => {
      const valid = (d: unknown): d is string => typeof d === 'string' && isValidDate(d);
      if (valid(v.startDate) && v.startDate < today && v.startDate !== options.currentStartDate) {
        ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'eventForm.startDateNotPast' });
      }
      if (valid(v.startDate) && valid(v.endDate) && v.endDate < v.startDate) {
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'eventForm.endDateOrder' });
      }
      if (valid(v.endDate) && valid(v.eventDate) && v.eventDate < v.endDate) {
        ctx.addIssue({ code: 'custom', path: ['eventDate'], message: 'eventForm.eventDateOrder' });
      }
    })
    .transform((v) => ({
      title: v.title,
      host: v.host,
      location: v.location,
      description: v.description,
      pricePiasters: egpToPiasters(v.price),
      capacity: Number(textOf(v.tickets)),
      refundHoursBefore: optionalWhole(v.refundHours, REFUND_HOURS_DEFAULT),
      cancellationFeePercent: optionalWhole(v.cancellationFee, CANCELLATION_FEE_DEFAULT),
      categoryId: v.categoryId || DEFAULT_CATEGORY_ID,
      startDate: v.startDate,
      endDate: v.endDate,
      eventDate: v.eventDate,
      startTime: v.startTime,
      endTime: v.endTime,
      imageUrl: v.imageUrl,
    }));
}

/** What the form edits and the API accepts (before parsing). */
export type EventInput = z.input<ReturnType<typeof eventInputSchema>>;
/** What the server stores. */
export type EventValues = z.output<ReturnType<typeof eventInputSchema>>;

/** The form's values: every input is text. */
export interface EventFormValues {
  title: string;
  host: string;
  location: string;
  price: string;
  tickets: string;
  refundHours: string;
  cancellationFee: string;
  categoryId: string;
  startDate: string;
  endDate: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  description: string;
  imageUrl: string;
}

/** First message per field, keyed by the field name ('' for the body itself). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors[key] ??= 'admin.unknownField';
      continue;
    }
    const key = issue.path.map(String).join('.') || 'body';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Query of GET /api/admin/events: a title prefix and a page (past the last is clamped, as on the public list). */
export const adminEventsQuerySchema = z.object({
  q: z
    .string()
    .optional()
    .transform((v) => (v ?? '').trim().slice(0, 100)),
  page: pageQueryParam(100_000),
});

/** Any string: a malformed id is simply not found (404). */
export const adminEventIdParamsSchema = z.object({ id: z.string().max(200) });

export const adminEventsPageSchema = pageSchema(eventSchema);
export type AdminEventsPage = z.infer<typeof adminEventsPageSchema>;

/** GET /api/admin/form-meta: what the event form needs besides the event. */
export const adminFormMetaSchema = z.object({
  /** Today's date in APP_TIMEZONE, for the "today or later" rule. */
  today: z.string(),
  categories: z.array(categorySchema),
  defaultCategoryId: z.string(),
});
export type AdminFormMeta = z.infer<typeof adminFormMetaSchema>;

export const uploadResultSchema = z.object({ url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;
