export const bookingsMessages = {
  /** The profile page's title and heading. */
  yourBookings: 'Your Bookings',
  yourTickets: 'Your Tickets',
  yourHistory: 'Your History',
  /** Why a ticket is in Your History (Ticket['historyReason']). */
  historyReasons: {
    removed: 'Removed by the organiser',
    ended: 'Event ended',
    'sales-closed': 'Ticket sales ended',
  },
} as const;
