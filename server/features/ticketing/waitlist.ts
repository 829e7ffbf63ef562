import type pg from 'pg';
import { todayIn } from '../../../contracts/dates';
import { msg } from '../../../contracts/i18n/text';
import { isUuid } from '../../../contracts/ids';
import type { JoinWaitlistBody, WaitlistItem } from '../../../contracts/waitlist';
import { ConflictError, NotFoundError } from '../../plugins/errors';
import type { PaymentOfEndedHold } from './repository';
import { releaseHoldOfUser } from './repository';
import { storedText } from './stored-text';
import { findOffer, findWaitlistItems, joinWaitlist, leaveWaitlist } from './waitlist-repository';

/**
 * The waitlist of a sold-out event (issue 36, decision 021): the user's moves. The offers themselves are made by
 * the database in whatever statement gives tickets back (sql/eventry_waitlist.sql), so no path can skip the line;
 * an offer is a pending booking of the user's, paid like any other, and declining it is the state machine's
 * declineOffer.
 */
export function createWaitlist(deps: {
  pool: pg.Pool;
  timeZone: string;
  /** Cancels the provider payments of holds that ended, and forgets them (the booking module's). */
  holdsEnded: (ended: Array<PaymentOfEndedHold & { id: string }>) => void;
}) {
  const { pool } = deps;

  async function itemOf(userId: string, eventId: string): Promise<WaitlistItem | undefined> {
    return (await findWaitlistItems(pool, userId, eventId))[0];
  }

  /** Ends the offer held for the user on the event (declineOffer); false when there is none. */
  async function declineOffer(userId: string, eventId: string): Promise<boolean> {
    const bookingId = await findOffer(pool, eventId, userId);
    if (!bookingId) return false;
    const ended = await releaseHoldOfUser(
      pool,
      { eventId, bookingId, userId, declinedOffer: true },
      storedText('emails.waitlistOffer.declined'),
    );
    if (ended === 'busy') throw new ConflictError('PAYMENT_IN_PROGRESS', msg('payment.holdBusy'));
    deps.holdsEnded(ended);
    return ended.length > 0;
  }

  return {
    async join(userId: string, eventId: string, body: Required<JoinWaitlistBody>): Promise<WaitlistItem> {
      if (!isUuid(eventId)) throw new NotFoundError(msg('payment.eventNotFound'), 'EVENT_NOT_FOUND');
      const outcome = await joinWaitlist(pool, {
        eventId,
        userId,
        quantity: body.quantity,
        acceptFewer: body.acceptFewer,
        today: todayIn(deps.timeZone),
        timeZone: deps.timeZone,
      });
      switch (outcome.kind) {
        case 'not-found':
          throw new NotFoundError(msg('payment.eventNotFound'), 'EVENT_NOT_FOUND');
        case 'closed':
          throw new ConflictError('EVENT_CLOSED', msg('waitlist.eventClosed'));
        case 'available':
          throw new ConflictError('TICKETS_AVAILABLE', msg('waitlist.ticketsAvailable'), {
            available: outcome.available,
          });
        case 'holding':
          throw new ConflictError('HOLDING_TICKETS', msg('waitlist.holdingTickets'));
        case 'already':
          throw new ConflictError('ALREADY_WAITING', msg('waitlist.alreadyWaiting'));
      }
      const item = await itemOf(userId, eventId);
      if (!item) throw new Error('a waitlist entry just made was not found');
      return item;
    },

    /** Leaves the line; an offer held is declined. 404 NOT_WAITING when the user is neither waiting nor offered. */
    async leave(userId: string, eventId: string): Promise<void> {
      if (isUuid(eventId) && ((await leaveWaitlist(pool, eventId, userId)) || (await declineOffer(userId, eventId)))) {
        return;
      }
      throw new NotFoundError(msg('waitlist.notWaiting'), 'NOT_WAITING');
    },

    async decline(userId: string, eventId: string): Promise<WaitlistItem> {
      if (!isUuid(eventId) || !(await declineOffer(userId, eventId))) {
        throw new NotFoundError(msg('waitlist.noOffer'), 'NO_OFFER');
      }
      const item = await itemOf(userId, eventId);
      if (!item) throw new Error('a declined waitlist entry was not found');
      return item;
    },

    async mine(userId: string): Promise<WaitlistItem[]> {
      return findWaitlistItems(pool, userId);
    },
  };
}

export type Waitlist = ReturnType<typeof createWaitlist>;
