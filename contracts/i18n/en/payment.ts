/**
 * Choosing tickets, the hold, paying and its outcome (the pages and the API's answers). Prices are given already
 * written ('150 EGP': i18n.price).
 */
export const payment = {
  processing: 'Processing ...',
  unexpectedState: 'Unexpected state',
  successTitle: 'Payment Successful',
  successText: 'Your event ticket has been booked and is available in your profile',
  failureTitle: 'Something Went Wrong',
  failureText: 'Please try again or contact support for assistance',
  viewMyTickets: 'View My Tickets',
  backToEvent: 'Back To Event',
  // Ticket selection and payment pages ({price}/{total} are written prices: '150 EGP').
  proceedToPay: 'Proceed to Pay {price}',
  // The same button while the quantity is over the limit (disabled): no total for tickets that cannot be had.
  proceedWithoutTotal: 'Proceed to Pay',
  pay: 'Pay {total}',
  methodStripe: 'Stripe',
  methodSimulated: 'Card (test mode)',
  decreaseQuantity: 'Decrease quantity',
  increaseQuantity: 'Increase quantity',
  quantity: 'Quantity',
  cardNumber: 'Card number',
  expiryDate: 'Expiry date',
  expiryPlaceholder: 'MM / YY',
  cvc: 'CVC',
  /** The simulated processor's card form; the placeholders are its test cards' numbers. */
  testModeHint:
    'Test mode: no money moves. {success} pays; {declined} is declined and {insufficient} has insufficient funds. Any future date and any CVC.',
  // The card processor's messages (Stripe's wording, reproduced by the simulated processor).
  cardDeclined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  invalidNumber: 'Your card number is invalid.',
  incompleteNumber: 'Your card number is incomplete.',
  expiredCard: "Your card's expiration date is in the past.",
  incompleteCvc: "Your card's security code is incomplete.",
  invalidExpiry: "Your card's expiration date is incomplete.",
  holdEnded: 'This reservation is no longer active. Choose your tickets again to book.',
  holdExpired: 'Your hold on these tickets has expired. Choose your tickets again to book.',
  // The buyer reserved the same event again (another tab): the newer reservation holds the tickets now.
  holdReplaced: 'You reserved these tickets again in another tab, and that newer reservation holds them now.',
  // The provider canceled the payment itself (Stripe's payment_intent.canceled).
  paymentCanceled: 'The payment of this reservation was canceled. Choose your tickets again to book.',
  // The buyer let their hold go (Cancel reservation on the payment page).
  cancelReservation: 'Cancel reservation',
  cancelling: 'Cancelling…',
  holdCancelled: 'You cancelled this reservation. Its tickets went back on sale.',
  holdCancelledToast: 'Reservation cancelled. Its tickets went back on sale.',
  holdBusy: 'Your payment is being processed, so this reservation cannot be cancelled now.',
  holdPaid: 'This reservation is paid, so it can no longer be cancelled.',
  // Stripe took the money just as the buyer cancelled (the PaymentIntent is canceled only after that).
  holdCancelledRefunded: 'You cancelled this reservation. Your payment was refunded.',
  keepReservation: 'Keep it',
  confirmCancel: 'Yes, cancel',
  confirmCancelQuestion: 'Let these tickets go?',
  holdExpiredRefunded: 'Your reservation expired and the tickets are no longer available. Your payment was refunded.',
  eventCancelledRefunded: 'This event is no longer available. Your payment was refunded.',
  // The event was deleted before the card was charged (the simulated processor decides on the server).
  eventGone: 'This event is no longer available.',
  notEnoughTickets: 'Not enough tickets left: {available} available.',
  soldOut: 'This event is sold out.',
  salesClosed: 'Ticket sales for this event have ended.',
  // Ticket selection: what is left, and how much of it the buyer already holds (choosing again replaces that hold).
  ticketsLeft: { one: '{count} ticket left', other: '{count} tickets left' },
  ticketsLeftWithHold: {
    one: '{count} ticket left, including the {held} held for you',
    other: '{count} tickets left, including the {held} held for you',
  },
  atMostAtOnce: {
    one: 'You can book at most {count} ticket at once.',
    other: 'You can book at most {count} tickets at once.',
  },
  getATicket: 'Get a ticket',
  ticketsFor: 'Tickets for {title}',
  tickets: 'Tickets',
  paymentMethod: 'Payment method',
  // The payment page.
  heading: 'Payment',
  changeTickets: 'Change tickets',
  loadingPaymentForm: 'Loading the payment form',
  heldFor: 'Tickets held for you for',
  minutes: 'minutes',
  lastMinute: 'Less than a minute left to pay.',
  // The countdown once the hold has run out: '{holdOver} [{chooseAgainLink}] {toBook}'.
  holdOver: 'Your hold on these tickets has expired.',
  chooseAgainLink: 'Choose your tickets again',
  toBook: 'to book.',
  reservationEnded: 'This reservation is no longer active',
  chooseAgain: 'Choose your tickets again to book.',
  chooseTickets: 'Choose tickets',
  browseEvents: 'Browse events',
  // The API's refusals (problem details and the request's validation).
  quantityRange: 'Choose between {min} and {max} tickets',
  quantityWhole: 'The number of tickets must be a whole number',
  quantityAtLeast: 'Choose at least {min} ticket',
  quantityAtMost: 'You can book at most {max} tickets at once',
  unknownEvent: 'Unknown event',
  unknownBooking: 'Unknown booking',
  eventNotFound: 'Event not found',
  idempotencyKeyReused: 'This Idempotency-Key was already used for another reservation.',
  idempotencyKeyLength: 'must be 1 to 200 characters',
  simulatedNotInUse: 'The simulated processor is not in use',
  webhooksNotConfigured: 'Stripe webhooks are not configured',
  signatureMissing: 'Missing Stripe signature',
  signatureInvalid: 'The Stripe signature is invalid or too old',
  eventUnreadable: 'The Stripe event is not one this server can read',
} as const;
