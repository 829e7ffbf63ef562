export const paymentMessages = {
  processing: 'Processing ...',
  unexpectedState: 'Unexpected state',
  successTitle: 'Payment Successful',
  successText: 'Your event ticket has been booked and is available in your profile',
  failureTitle: 'Something Went Wrong',
  failureText: 'Please try again or contact support for assistance',
  viewMyTickets: 'View My Tickets',
  backToEvent: 'Back To Event',
  // Ticket selection and payment pages ({price}/{total} are EGP amounts).
  proceedToPay: 'Proceed to Pay {price} EGP',
  // The same button while the quantity is over the limit (disabled): no total for tickets that cannot be had.
  proceedWithoutTotal: 'Proceed to Pay',
  pay: 'Pay {total} EGP',
  methodStripe: 'Stripe',
  methodSimulated: 'Card (test mode)',
  decreaseQuantity: 'Decrease quantity',
  increaseQuantity: 'Increase quantity',
  cardNumber: 'Card number',
  expiryDate: 'Expiry date',
  cvc: 'CVC',
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
  // The buyer let their hold go (Cancel reservation on the payment page).
  cancelReservation: 'Cancel reservation',
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
  // Ticket selection, when the buyer holds some of the tickets left (choosing again replaces that hold).
  includingYourHold: 'including the {held} held for you',
} as const;
