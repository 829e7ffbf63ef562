export const bookingsMessages = {
  yourTickets: 'Your Tickets',
  yourHistory: 'Your History',
} as const;
