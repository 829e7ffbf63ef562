/** The waitlist of a sold-out event (contracts/waitlist.ts): the event page's panel, Your Tickets, the API's words. */
export const waitlist = {
  // The API's refusals (problem details).
  ticketsAvailable: 'Tickets are available: reserve them instead of joining the waitlist.',
  alreadyWaiting: 'You are already on the waitlist for this event.',
  holdingTickets: 'You are holding tickets for this event: pay for them or cancel the reservation first.',
  eventClosed: 'This event no longer takes a waitlist.',
  notWaiting: 'You are not on the waitlist for this event.',
  noOffer: 'There is no offer of tickets to decline.',

  // The event page's panel, under a sold-out event's price.
  title: 'Waitlist',
  intro: 'If tickets come back, we hold them for you in join order and email you.',
  join: 'Join the waitlist',
  joining: 'Joining…',
  quantity: 'Tickets you want',
  acceptFewer: 'I’ll take fewer',
  acceptFewerHint: 'If fewer tickets come back than you want, hold those for me.',
  position: 'You are number {position} on the waitlist',
  wanted: { one: 'You asked for {count} ticket.', other: 'You asked for {count} tickets.' },
  wantedOrFewer: { one: 'You asked for {count} ticket.', other: 'You asked for {count} tickets, or fewer.' },
  leave: 'Leave the waitlist',
  leaving: 'Leaving…',
  left: 'You left the waitlist',
  loadFailed: 'Your place on the waitlist could not be loaded.',
  offerExpired: 'The tickets held for you were not paid for in time. You can join the waitlist again.',
  offerDeclined: 'You declined the tickets held for you. You can join the waitlist again.',

  // Tickets offered to a waitlisted user (the panel and Your Tickets).
  offerTitle: 'Tickets held for you',
  offerHeld: {
    one: '{count} ticket is held for you until {time} on {date}.',
    other: '{count} tickets are held for you until {time} on {date}.',
  },
  payNow: 'Pay now',
  decline: 'Decline',
  declineTitle: 'Decline these tickets?',
  declineIntro: 'The tickets held for you to {title} go to the next person on the waitlist.',
  keepOffer: 'Keep them',
  confirmDecline: 'Decline tickets',
  declining: 'Declining…',
  declined: 'Tickets declined',

  // Your Tickets.
  yourWaitlists: 'Your waitlists',
  waiting: 'On the waitlist',
  listLoadFailed: 'Your waitlists could not be loaded.',
} as const;
