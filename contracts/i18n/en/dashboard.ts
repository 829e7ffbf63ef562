/** The organiser's dashboard (/admin/dashboard, /admin/event/:id/dashboard) and its CSV exports. */
export const dashboard = {
  dayInvalid: 'Choose a real date (YYYY-MM-DD)',
  rangeReversed: 'The end date must be on or after the start date',
  rangeTooLong: 'Choose at most {max} days',
  eventNotFound: 'This event does not exist or was deleted.',
  methods: {
    simulated: 'Test card',
    stripe: 'Card (Stripe)',
    paymobCard: 'Card (Paymob)',
    paymobWallet: 'Mobile wallet',
    paymobCash: 'Cash at a kiosk',
  },
  orderStatus: {
    paid: 'Paid',
    partlyRefunded: 'Partly refunded',
    refunded: 'Refunded',
  },
  orderColumns: {
    order: 'Order',
    event: 'Event',
    eventDate: 'Event date',
    name: 'Name',
    email: 'Email',
    method: 'Paid with',
    paidAt: 'Paid at',
    tickets: 'Tickets',
    paid: 'Paid (EGP)',
    refundedAt: 'Refunded at',
    ticketsRefunded: 'Tickets refunded',
    refunded: 'Refunded (EGP)',
    status: 'Status',
  },
  attendeeColumns: {
    event: 'Event',
    eventDate: 'Event date',
  },
} as const;
