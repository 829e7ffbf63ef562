/**
 * Every email Eventry sends (server/plugins/email-templates.ts), in its recipient's language. Never sent to the
 * browser. The English is what the emails have always said.
 */
export const emails = {
  brand: 'Eventry',
  sentBy: 'Sent by Eventry.',
  signOff: '— Eventry',
  openLink: 'Or open this link: {url}',
  greeting: 'Hi {name},',
  /** The greeting of an account without a name. */
  greetingNoName: 'Hi there,',
  verification: {
    subject: 'Eventry: verify your email address',
    title: 'Verify your email address',
    welcome: 'Welcome to Eventry! Please confirm your email address.',
    welcomeText: 'Welcome to Eventry! Please confirm your email address by opening this link:',
    ignore: 'If you did not create an account, you can ignore this email.',
    action: 'Verify email',
  },
  passwordReset: {
    subject: 'Eventry: reset your password',
    title: 'Reset your password',
    asked: 'Someone asked to reset the password of your Eventry account. The link works once, within an hour.',
    askedText:
      'Someone asked to reset the password of your Eventry account. Open this link to choose a new one (it works once, within an hour):',
    ignore: 'If it was not you, ignore this email.',
    action: 'Choose a new password',
  },
  contact: {
    subject: 'Eventry contact: {subject}',
    title: 'New contact message',
    intro: 'New message from the Eventry contact form.',
    nameLabel: 'Name',
    emailLabel: 'Email',
    subjectLabel: 'Subject',
    descriptionLabel: 'Event description',
    reply: 'Reply to this email to answer {name} directly.',
  },
  booking: {
    subject: 'Eventry: your tickets for {title}',
    title: 'Your booking is confirmed',
    confirmed: 'Your booking for {title} is confirmed.',
    event: 'Event',
    date: 'Date',
    time: 'Time',
    tickets: 'Tickets',
    total: 'Total paid',
    when: '{weekday}, {date}',
    times: '{start} - {end}',
    whereTickets: 'Your tickets are in your profile under Your Tickets.',
  },
  refund: {
    subject: 'Eventry: your refund for {title}',
    title: 'Your refund',
    byBuyer: 'You cancelled {tickets} for {title}. We have refunded {amount}.',
    byOrganiser: 'The organiser of {title} has refunded your booking ({tickets}): {amount}.',
    eventCancelled: 'This event has been cancelled: {title}. We have refunded {amount} for your {tickets}.',
    when: 'The money goes back the way you paid; your bank or wallet may take a few days to show it. The refunded tickets are no longer valid.',
  },
  /** Tickets of a sold-out event offered to a waitlisted user (contracts/waitlist.ts). */
  waitlistOffer: {
    subject: 'Eventry: tickets for {title} are waiting for you',
    title: 'Your turn on the waitlist',
    offered: 'Tickets came back for {title}, and we are holding {tickets} for you.',
    offeredFewer:
      'Tickets came back for {title}. You asked for {asked} and said you would take fewer: we are holding {tickets} for you.',
    until: 'They are yours until {time}. After that they go to the next person on the waitlist.',
    pay: 'Pay for your tickets',
    decline:
      "Changed your mind? Decline the offer on the event's page ({url}) and the tickets go to the next person at once.",
    /** Stored on the booking when the user declines (not shown to them). */
    declined: 'Waitlist offer declined',
  },
} as const;
