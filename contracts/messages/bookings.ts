export const bookingsMessages = {
  yourTickets: 'Your Tickets',
  yourHistory: 'Your History',
  /** Why a ticket is in Your History. */
  eventEnded: 'Event ended',
  eventRemoved: 'Removed by the organiser',
} as const;
