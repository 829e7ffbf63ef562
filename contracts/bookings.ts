import { z } from 'zod';
import { MAX_TICKETS_PER_BOOKING, MIN_TICKETS_PER_BOOKING } from './constants';
import { msg } from './i18n/text';
import type { MessageKey } from './i18n/types';

export const bookingStatusSchema = z.enum(['pending', 'paid', 'expired', 'failed', 'refunded', 'cancelled']);
export type BookingStatusDto = z.infer<typeof bookingStatusSchema>;
/**
 * Why a booking that is neither pending nor paid ended (server/features/ticketing/state-machine.ts): decide from
 * this, never from the words of `failureMessage`.
 */
export const bookingEndReasonSchema = z.enum([
  'replaced',
  'cancelled_by_buyer',
  'expired',
  'payment_canceled',
  'event_deleted',
]);

export const paymentProviderSchema = z.enum(['stripe', 'simulated']);
export type PaymentProviderName = z.infer<typeof paymentProviderSchema>;

/** A whole number of tickets, 1 to 10. Strings ("3") and fractions (2.5) are refused, never coerced. */
export const ticketQuantitySchema = z
  .number({ message: msg('payment.quantityRange', { min: MIN_TICKETS_PER_BOOKING, max: MAX_TICKETS_PER_BOOKING }) })
  .int({ message: msg('payment.quantityWhole') })
  .min(MIN_TICKETS_PER_BOOKING, { message: msg('payment.quantityAtLeast', { min: MIN_TICKETS_PER_BOOKING }) })
  .max(MAX_TICKETS_PER_BOOKING, { message: msg('payment.quantityAtMost', { max: MAX_TICKETS_PER_BOOKING }) });

/** Body of POST /api/bookings. The price and total always come from the database. */
export const createBookingBodySchema = z.strictObject({
  eventId: z.uuid({ message: msg('payment.unknownEvent') }),
  quantity: ticketQuantitySchema,
});
export type CreateBookingBody = z.infer<typeof createBookingBodySchema>;

/** Optional header making a reservation safe to retry: the same key returns the same booking. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z.string().trim().min(1).max(200);

export const bookingIdParamsSchema = z.object({ id: z.string().max(200) });

/** The event as a booking shows it. */
export const bookingEventSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  imageUrl: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  pricePiasters: z.number().int(),
  isDeleted: z.boolean(),
});
export type BookingEvent = z.infer<typeof bookingEventSchema>;

export const bookingPaymentSchema = z.object({
  provider: paymentProviderSchema,
  /** Stripe only: the PaymentIntent's client secret for the Payment Element. */
  clientSecret: z.string().optional(),
});

export const bookingSchema = z.object({
  id: z.uuid(),
  status: bookingStatusSchema,
  /** null while pending or paid; a refunded booking keeps why its hold had ended. */
  endedReason: bookingEndReasonSchema.nullable(),
  quantity: z.number().int(),
  unitPricePiasters: z.number().int(),
  totalPiasters: z.number().int(),
  /** ISO timestamp until which a pending booking holds its tickets. */
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  /** The last payment error the provider reported, if any. */
  failureMessage: z.string().nullable(),
  event: bookingEventSchema,
  payment: bookingPaymentSchema,
});
export type Booking = z.infer<typeof bookingSchema>;

/** GET /api/me/holds/:eventId: the event whose hold is asked for (a malformed id is simply not found). */
export const myHoldParamsSchema = z.object({ eventId: z.string().max(200) });

/**
 * The caller's unexpired pending hold on one event, or null. Reserving again replaces it and its tickets
 * count towards the new reservation, so the ticket page offers the tickets left plus these.
 */
export const myHoldSchema = z.object({
  hold: z
    .object({
      id: z.uuid(),
      quantity: z.number().int(),
      /** ISO timestamp at which the hold ends and stops counting. */
      expiresAt: z.string(),
    })
    .nullable(),
});
export type MyHold = z.infer<typeof myHoldSchema>;

/** One paid booking as a ticket card of the profile. */
export const ticketSchema = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  title: z.string(),
  imageUrl: z.string(),
  eventDate: z.string(),
  weekday: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  quantity: z.number().int(),
  totalPiasters: z.number().int(),
  paidAt: z.string().nullable(),
  location: z.string(),
  /** When the event starts and ends (ISO, UTC), from its date and times in APP_TIMEZONE: for calendar links. */
  startsAt: z.string(),
  endsAt: z.string(),
  /**
   * Why the ticket is in Your History (null in Your Tickets): the organiser removed the event, the event is
   * over, or its ticket sales have ended (the spec archives such events, though they may still be ahead).
   */
  historyReason: z.enum(['removed', 'ended', 'sales-closed']).nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/** GET /api/me/bookings: paid bookings of active events, and of deleted or past ones. */
export const myBookingsSchema = z.object({ tickets: z.array(ticketSchema), history: z.array(ticketSchema) });
export type MyBookings = z.infer<typeof myBookingsSchema>;

export const paymentConfigSchema = z.object({
  provider: paymentProviderSchema,
  publishableKey: z.string().optional(),
});
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

/** The simulated processor's card form. The server decides the outcome; these only check the shape. */
export const simulatedConfirmBodySchema = z.strictObject({
  bookingId: z.uuid({ message: msg('payment.unknownBooking') }),
  cardNumber: z
    .string()
    .trim()
    .regex(/^[\d ]{8,30}$/, { message: msg('payment.invalidNumber') }),
  expMonth: z
    .number()
    .int()
    .min(1, { message: msg('payment.invalidExpiry') })
    .max(12, { message: msg('payment.invalidExpiry') }),
  /** Two or four digits. */
  expYear: z.number().int().min(0).max(9999),
  cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, { message: msg('payment.incompleteCvc') }),
});
export type SimulatedConfirmBody = z.infer<typeof simulatedConfirmBodySchema>;

/** Stripe's test cards and messages, as the simulated processor reproduces them. */
export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** Luhn checksum of a digits-only card number. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** 'MM / YY' (or MM/YY, MMYY) → month and a four-digit year; undefined when it cannot be read. */
export function parseCardExpiry(value: string): { month: number; year: number } | undefined {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!m) return undefined;
  const month = Number(m[1]);
  const rawYear = Number(m[2]);
  if (month < 1 || month > 12) return undefined;
  return { month, year: rawYear < 100 ? 2000 + rawYear : rawYear };
}

/** Answer of POST /api/payments/simulated/confirm when the payment went through. */
export const paymentResultSchema = z.object({ bookingId: z.uuid(), status: bookingStatusSchema });
export type PaymentResult = z.infer<typeof paymentResultSchema>;

/**
 * Problem codes of a refused card, and what the buyer reads for each in their language (the simulated processor
 * reproduces Stripe's codes and words; the pages decide by the code, never by the words).
 */
export const CARD_ERROR_MESSAGES = {
  card_declined: 'payment.cardDeclined',
  insufficient_funds: 'payment.insufficientFunds',
  incorrect_number: 'payment.invalidNumber',
  expired_card: 'payment.expiredCard',
  invalid_expiry: 'payment.invalidExpiry',
} as const satisfies Record<string, MessageKey>;
export type CardErrorCode = keyof typeof CARD_ERROR_MESSAGES;

export function isCardErrorCode(code: string): code is CardErrorCode {
  return Object.hasOwn(CARD_ERROR_MESSAGES, code);
}
