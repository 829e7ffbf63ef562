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
  // A paid booking given back (contracts/refunds.ts): the buyer cancelled, the organiser refunded, the event was cancelled.
  'refunded_to_buyer',
  'refunded_by_organiser',
  'event_cancelled',
  // A waitlist offer the user declined (contracts/waitlist.ts).
  'offer_declined',
]);

export const paymentProviderSchema = z.enum(['stripe', 'simulated', 'paymob']);
export type PaymentProviderName = z.infer<typeof paymentProviderSchema>;
/** How a buyer pays: Stripe and the simulated processor take cards; Paymob cards, mobile wallets and kiosk cash. */
export const paymentMethodSchema = z.enum(['card', 'wallet', 'cash']);
export type PaymentMethodName = z.infer<typeof paymentMethodSchema>;

/**
 * An Egyptian mobile number (010, 011, 012 or 015 and eight digits), as typed: with or without +20 or 0020, with
 * spaces or dashes. Written back in one form, +201XXXXXXXXX.
 */
export const egyptianMobileSchema = z
  .string()
  .max(40)
  .transform((value) => value.replace(/[\s\-().]/g, ''))
  .pipe(z.string().regex(/^(?:\+20|0020|20|0)?1[0125]\d{8}$/, { message: msg('payment.phoneInvalid') }))
  .transform((digits) => `+20${digits.slice(digits.length - 10)}`);

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
  /** The provider of the booking's current payment; null until one is started (Paymob alone, nothing chosen). */
  provider: paymentProviderSchema.nullable(),
  /** Stripe only: the PaymentIntent's client secret for the Payment Element. */
  clientSecret: z.string().optional(),
  method: paymentMethodSchema.nullable(),
  /** Paymob's kiosk cash, while the booking waits for it: the bill reference to pay against (until expiresAt). */
  cashReference: z.string().nullable(),
  /** The mobile number the buyer gave Paymob last time (+201XXXXXXXXX), offered again; only on GET. */
  phone: z.string().nullable().optional(),
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
  historyReason: z.enum(['removed', 'ended', 'sales-closed', 'refunded', 'cancelled']).nullable(),
  /** The price of one ticket, for the cancel dialog's quote. */
  unitPricePiasters: z.number().int(),
  /** Tickets of the booking given back so far, and the money returned for them ('Refunded {amount} EGP'). */
  refundedQuantity: z.number().int(),
  refundedPiasters: z.number().int(),
  /** Until when the buyer may cancel (ISO); null when the event's policy gives no refunds or nothing is left. */
  refundableUntil: z.string().nullable(),
  cancellationFeePercent: z.number().int(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/** A booking waiting for its kiosk cash: listed under Your Tickets as 'Awaiting payment' until it is paid. */
export const awaitingPaymentSchema = z.object({
  bookingId: z.uuid(),
  eventId: z.uuid(),
  title: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  quantity: z.number().int(),
  totalPiasters: z.number().int(),
  cashReference: z.string(),
  /** Pay before this instant (ISO). */
  expiresAt: z.string(),
});
export type AwaitingPayment = z.infer<typeof awaitingPaymentSchema>;

/**
 * GET /api/me/bookings: paid bookings of active events, and of deleted or past ones, and the bookings waiting for
 * their kiosk cash.
 */
export const myBookingsSchema = z.object({
  tickets: z.array(ticketSchema),
  history: z.array(ticketSchema),
  awaiting: z.array(awaitingPaymentSchema),
});
export type MyBookings = z.infer<typeof myBookingsSchema>;

/** A way to pay offered on the payment page. */
export const paymentChoiceSchema = z.object({ provider: paymentProviderSchema, method: paymentMethodSchema });
export type PaymentChoice = z.infer<typeof paymentChoiceSchema>;

export const paymentConfigSchema = z.object({
  /** The provider a reservation starts at once (Stripe, else the simulated processor); null with Paymob alone. */
  provider: paymentProviderSchema.nullable(),
  publishableKey: z.string().optional(),
  /** Every way to pay that is configured, in the order the payment page offers them. */
  choices: z.array(paymentChoiceSchema),
  /** APP_TIMEZONE: a kiosk-cash deadline is told as the organiser's wall clock reads it. */
  timeZone: z.string(),
});
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

/** POST /api/payments/paymob/start: pay a held booking with Paymob (the phone may come from the profile). */
export const paymobStartBodySchema = z.strictObject({
  bookingId: z.uuid({ message: msg('payment.unknownBooking') }),
  method: paymentMethodSchema,
  phone: egyptianMobileSchema.optional(),
});
export type PaymobStartBody = z.input<typeof paymobStartBodySchema>;

/** Card and wallet go on to Paymob's checkout; cash answers the bill reference, what to pay and by when. */
export const paymobStartAnswerSchema = z.union([
  z.object({ checkoutUrl: z.url() }),
  z.object({ reference: z.string(), amountPiasters: z.number().int(), expiresAt: z.string() }),
]);
export type PaymobStartAnswer = z.infer<typeof paymobStartAnswerSchema>;

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
