import type { BookingEndReason, BookingStatus } from '../../db/schema';

/**
 * A booking's life, in one table. Every statement that changes a booking's status names one of these
 * transitions and takes its target from here (`setState`), and `state-machine.test.ts` drives each of them
 * through the app. The database keeps the part it can check on its own: `ended_reason` is set exactly when a
 * booking has ended unpaid (CHECK bookings_ended_reason_iff_ended, migration 0015).
 *
 *   (none) ──reserve──▶ pending ──pay──▶ paid
 *                         │
 *                         ├─replace──────────────▶ cancelled / replaced
 *                         ├─cancelHold───────────▶ cancelled / cancelled_by_buyer
 *                         ├─expire───────────────▶ expired / expired
 *                         ├─endForDeletedEvent───▶ failed / event_deleted
 *                         ├─cancelPayment────────▶ failed / payment_canceled
 *                         └─refundForDeletedEvent▶ refunded / event_deleted
 *   expired, cancelled / replaced, failed / payment_canceled ──payLate──▶ paid (tickets taken again)
 *   any ended state ──refundLate──▶ refunded (its reason kept)
 *   pending ──endForCancelledEvent──▶ failed / event_cancelled
 *   (none) ──offer──▶ pending (a waitlist entry's hold: ../sql/eventry_waitlist.sql) ──declineOffer──▶ cancelled / offer_declined
 *   paid ──refundPart──▶ paid (some tickets given back)
 *   paid ──refundToBuyer / refundByOrganiser / refundForCancelledEvent──▶ refunded / refunded_to_buyer,
 *        refunded_by_organiser, event_cancelled (every ticket given back: refunds.ts)
 */

/** A booking's state as the machine sees it: its status, and why it ended when it did. */
export interface BookingState {
  status: BookingStatus;
  endedReason: BookingEndReason | null;
}

/** Who may cause a transition. */
export type Actor = 'buyer' | 'provider' | 'job' | 'admin';

/** A state a transition leaves: a status alone (any reason), or a status with the reason it ended for. */
type From = 'none' | BookingStatus | `${BookingStatus}/${BookingEndReason}`;

export interface Transition {
  from: readonly From[];
  to: BookingStatus;
  /** The reason the booking ends with; 'kept' keeps the one it had; absent for pending and paid. */
  reason?: BookingEndReason | 'kept';
  by: readonly Actor[];
  why: string;
}

const ENDED_UNPAID = [
  'expired/expired',
  'cancelled/replaced',
  'cancelled/cancelled_by_buyer',
  'failed/payment_canceled',
  'failed/event_deleted',
  'failed/event_cancelled',
  'cancelled/offer_declined',
] as const satisfies readonly From[];

export const transitions = {
  reserve: {
    from: ['none'],
    to: 'pending',
    by: ['buyer'],
    why: 'A buyer holds tickets for HOLD_MINUTES while they pay.',
  },
  offer: {
    from: ['none'],
    to: 'pending',
    by: ['buyer', 'provider', 'job', 'admin'],
    why: 'Tickets came back to an event with a waitlist: whatever gave them back, they are held in the same statement for the first waiting user they fit, for WAITLIST_OFFER_HOURS but never past the start (sql/eventry_waitlist.sql).',
  },
  declineOffer: {
    from: ['pending'],
    to: 'cancelled',
    reason: 'offer_declined',
    by: ['buyer'],
    why: 'The waitlisted user said no to the tickets offered (or left the waitlist): they go on to the next in line at once.',
  },
  replace: {
    from: ['pending'],
    to: 'cancelled',
    reason: 'replaced',
    by: ['buyer'],
    why: 'The buyer reserved the same event again (another tab): the newer hold counts these tickets and keeps their time.',
  },
  cancelHold: {
    from: ['pending'],
    to: 'cancelled',
    reason: 'cancelled_by_buyer',
    by: ['buyer'],
    why: "The buyer let the hold go ('Cancel reservation'): its tickets go back on sale at once.",
  },
  expire: {
    from: ['pending'],
    to: 'expired',
    reason: 'expired',
    by: ['job', 'buyer'],
    why: 'The hold ran out: the expiry job gives its tickets back, or sooner a payment that came too late.',
  },
  endForDeletedEvent: {
    from: ['pending'],
    to: 'failed',
    reason: 'event_deleted',
    by: ['admin', 'buyer'],
    why: 'The event was deleted: deleting ends its holds, and a simulated payment that finds it deleted charges nothing.',
  },
  cancelPayment: {
    from: ['pending'],
    to: 'failed',
    reason: 'payment_canceled',
    by: ['provider'],
    why: 'The provider canceled the payment (Stripe payment_intent.canceled): the hold ends and its tickets go back.',
  },
  pay: {
    from: ['pending'],
    to: 'paid',
    by: ['provider'],
    why: 'The provider took the money while the hold was on.',
  },
  payLate: {
    from: ['expired/expired', 'cancelled/replaced', 'failed/payment_canceled'],
    to: 'paid',
    by: ['provider'],
    why: 'The money came after the hold ended (a slow webhook) and its tickets are still there: they are taken again.',
  },
  refundForDeletedEvent: {
    from: ['pending'],
    to: 'refunded',
    reason: 'event_deleted',
    by: ['provider'],
    why: 'The money came for a hold whose event was deleted meanwhile: its tickets go back and the money is refunded.',
  },
  endForCancelledEvent: {
    from: ['pending'],
    to: 'failed',
    reason: 'event_cancelled',
    by: ['admin', 'job'],
    why: 'The organiser cancelled the event: its holds end and their tickets go back.',
  },
  refundPart: {
    from: ['paid'],
    to: 'paid',
    by: ['buyer', 'admin'],
    why: 'Some of the tickets were given back and refunded; the rest stay valid.',
  },
  refundToBuyer: {
    from: ['paid'],
    to: 'refunded',
    reason: 'refunded_to_buyer',
    by: ['buyer'],
    why: "The buyer cancelled the booking's last tickets while the event's refund policy allowed it.",
  },
  refundByOrganiser: {
    from: ['paid'],
    to: 'refunded',
    reason: 'refunded_by_organiser',
    by: ['admin'],
    why: 'The organiser refunded the booking in full, whatever the policy.',
  },
  refundForCancelledEvent: {
    from: ['paid'],
    to: 'refunded',
    reason: 'event_cancelled',
    by: ['admin', 'job'],
    why: 'The organiser cancelled the event: every paid booking is refunded in full.',
  },
  refundLate: {
    from: ENDED_UNPAID,
    to: 'refunded',
    reason: 'kept',
    by: ['provider'],
    why: 'The money came after the hold ended and its tickets are gone, or the buyer had cancelled it: it is refunded.',
  },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof transitions;

function fromKey(state: BookingState | null): From[] {
  if (!state) return ['none'];
  return state.endedReason ? [state.status, `${state.status}/${state.endedReason}`] : [state.status];
}

/** Whether `name` may move a booking in `state` (null: no booking yet). */
export function allows(name: TransitionName, state: BookingState | null): boolean {
  const from: readonly From[] = transitions[name].from;
  return fromKey(state).some((key) => from.includes(key));
}

/** The state a booking in `state` reaches by `name`; throws when the table does not allow it (a bug). */
export function apply(name: TransitionName, state: BookingState | null): BookingState {
  if (!allows(name, state)) {
    throw new Error(`booking transition ${name} is not allowed from ${fromKey(state).at(-1)}`);
  }
  const transition: Transition = transitions[name];
  const endedReason = transition.reason === 'kept' ? (state?.endedReason ?? null) : (transition.reason ?? null);
  return { status: transition.to, endedReason };
}

/**
 * The SET part of an UPDATE of bookings that applies `name`: the status and the reason from the table (every
 * value is a constant of this file, so it is written into the statement rather than sent as a parameter, which
 * keeps prepared statements' plans the same).
 */
export function setState(name: TransitionName): string {
  const transition: Transition = transitions[name];
  const reason = transition.reason === 'kept' ? 'ended_reason' : transition.reason ? `'${transition.reason}'` : 'NULL';
  return `status = '${transition.to}', ended_reason = ${reason}`;
}
