import type { I18n } from '../../../contracts/i18n/i18n';
import type { MessageKey } from '../../../contracts/i18n/types';
import type { WaitlistItem } from '../../../contracts/waitlist';
import { ApiError } from './api-client';
import { deadlineParams } from './wall-clock';

/** The waitlist API's refusals (contracts/waitlist.ts), by code: the same words in the page's language. */
const PROBLEMS: Record<string, MessageKey> = {
  TICKETS_AVAILABLE: 'waitlist.ticketsAvailable',
  ALREADY_WAITING: 'waitlist.alreadyWaiting',
  HOLDING_TICKETS: 'waitlist.holdingTickets',
  EVENT_CLOSED: 'waitlist.eventClosed',
  NOT_WAITING: 'waitlist.notWaiting',
  NO_OFFER: 'waitlist.noOffer',
};

/** Why a waitlist request failed: a refusal of its own by its code, anything else as the server said it. */
export function waitlistProblemText(error: unknown, { t }: Pick<I18n, 't'>): string {
  if (!(error instanceof ApiError)) return t('common.somethingWentWrong');
  const key = PROBLEMS[error.code];
  if (key) return t(key);
  // A network failure or a 5xx says nothing a person can act on but trying again.
  return error.status > 0 && error.status < 500 ? error.message : t('common.somethingWentWrong');
}

/** 'You asked for 2 tickets, or fewer.' */
export function wantedText({ t }: Pick<I18n, 't'>, item: Pick<WaitlistItem, 'quantity' | 'acceptFewer'>): string {
  return t(item.acceptFewer ? 'waitlist.wantedOrFewer' : 'waitlist.wanted', { count: item.quantity });
}

/** '2 tickets are held for you until 07:30 PM on Dec 5, 2026.', in the app's time zone whatever the device's. */
export function offerText(
  i18n: Pick<I18n, 't' | 'time' | 'date'>,
  offer: NonNullable<WaitlistItem['offer']>,
  timeZone: string,
): string {
  return i18n.t('waitlist.offerHeld', { count: offer.quantity, ...deadlineParams(i18n, offer.expiresAt, timeZone) });
}
