/** The profile's bookings: Your Tickets and Your History, and how a booking's event is dated. */
export const bookings = {
  /** The profile page's title and heading. */
  yourBookings: 'Your Bookings',
  yourTickets: 'Your Tickets',
  yourHistory: 'Your History',
  noTicketsYet: 'No tickets yet.',
  noPastTickets: 'No past tickets.',
  /** Why a ticket is in Your History (Ticket['historyReason']). */
  historyReasons: {
    removed: 'Removed by the organiser',
    ended: 'Event ended',
    'sales-closed': 'Ticket sales ended',
    /** Given back whole: the money returned ('Refunded 150 EGP'). */
    refunded: 'Refunded {amount}',
    cancelled: 'This event has been cancelled',
  },
  ticketCount: { one: '{count} ticket', other: '{count} tickets' },

  /** Cancelling paid tickets (contracts/refunds.ts): Your Tickets' cards and their dialog. */
  refundedAmount: 'Refunded {amount}',
  refundableUntil: 'Refundable until {time} on {date}',
  cancelBooking: 'Cancel booking',
  cancelBookingOf: 'Cancel booking: {title}',
  cancelIntro: 'Cancelled tickets to {title} stop working and cannot be used to enter.',
  ticketsToCancel: 'Tickets to cancel',
  quoteLoading: 'Working out your refund…',
  youGetBack: 'You will get back {amount}.',
  youGetBackWithFee: 'You will get back {amount}, after a {fee} cancellation fee.',
  refundsClosed: 'Refunds for this booking have closed.',
  quoteFailed: 'Your refund could not be worked out.',
  retryQuote: 'Try again',
  keepBooking: 'Keep booking',
  confirmCancel: { one: 'Cancel {count} ticket', other: 'Cancel {count} tickets' },
  cancelling: 'Cancelling…',
  cancelledToast: {
    one: '{count} ticket cancelled: {amount} refunded',
    other: '{count} tickets cancelled: {amount} refunded',
  },
} as const;
