/** The ticket holder's texts: Your Tickets on the profile, the PDF and the confirmation email. */
export const ticketsMessages = {
  ticketOf: (number: number, of: number) => `Ticket ${number} of ${of}`,
  qrLabel: (number: number, of: number) => `QR code of ticket ${number} of ${of}`,
  shortCodeLabel: 'Short code',
  checkedInAt: (when: string) => `Checked in at ${when}`,
  void: 'This ticket is void (refunded or cancelled).',
  addToCalendar: 'Add to calendar',
  calendarFile: 'Calendar file (.ics)',
  googleCalendar: 'Google Calendar',
  downloadPdf: 'Download PDF',
  loading: 'Loading your tickets…',
  none: 'Your tickets appear here once the payment is confirmed.',
  loadFailed: 'Your tickets could not be loaded.',
  retry: 'Try again',
  listLabel: (title: string) => `Tickets for ${title}`,
  showAtDoor: 'Show this code at the door, or tell them the short code.',
  /** The confirmation email. */
  emailIntro:
    'Show a ticket’s QR code at the door (or tell them its short code). The event is attached as a calendar file.',
  emailPdfHint: 'Your tickets are also in your profile under Your Tickets, with a PDF to print.',
  /** The PDF. */
  pdfHolder: (name: string) => `Holder: ${name}`,
  pdfTitle: (title: string) => `Tickets: ${title}`,
  bookingNotPaid: 'This booking is not paid, so it has no tickets.',
  bookingNotFound: 'Booking not found',
  eventNotFound: 'This event is no longer available.',
} as const;
