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
  },
  ticketCount: { one: '{count} ticket', other: '{count} tickets' },
} as const;
