/** The ticket holder's texts: Your Tickets on the profile, the PDF, the confirmation email, and check-in refusals. */
export const tickets = {
  ticketOf: 'Ticket {number} of {of}',
  qrLabel: 'QR code of ticket {number} of {of}',
  shortCodeLabel: 'Short code',
  checkedInAt: 'Checked in at {when}',
  void: 'This ticket is void (refunded or cancelled).',
  addToCalendar: 'Add to calendar',
  calendarFile: 'Calendar file (.ics)',
  googleCalendar: 'Google Calendar',
  downloadPdf: 'Download PDF',
  loading: 'Loading your tickets…',
  none: 'Your tickets appear here once the payment is confirmed.',
  loadFailed: 'Your tickets could not be loaded.',
  retry: 'Try again',
  listLabel: 'Tickets for {title}',
  showAtDoor: 'Show this code at the door, or tell them the short code.',
  /** The confirmation email. */
  emailIntro:
    'Show a ticket’s QR code at the door (or tell them its short code). The event is attached as a calendar file.',
  emailPdfHint: 'Your tickets are also in your profile under Your Tickets, with a PDF to print.',
  /** The PDF. */
  pdfHolder: 'Holder: {name}',
  pdfTitle: 'Tickets: {title}',
  /** The event's day and hours on the PDF. */
  pdfWhen: '{date}  ·  {start} - {end}',
  bookingNotPaid: 'This booking is not paid, so it has no tickets.',
  bookingNotFound: 'Booking not found',
  eventNotFound: 'This event is no longer available.',
  /** Check-in's refusals (the door pages show the API's words). */
  notDoorStaff: 'You are not on the door staff of this event',
  unknownEvent: 'Unknown event',
  enterCode: 'Enter a ticket code',
  unknownTicket: 'Unknown ticket',
} as const;
