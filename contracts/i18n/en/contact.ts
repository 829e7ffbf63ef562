/** The contact form (/contact), its confirmation (/success-email) and the contact API's messages. */
export const contact = {
  heading: 'Contact Us',
  description: 'Hosting an event? Tell the Eventry team about it.',
  intro:
    'Tell us about the event you would like to host on Eventry. Our team reads every message and replies by email.',
  nameRequired: 'Name is required',
  nameTooShort: 'Name must be at least 3 characters long',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address (e.g., {email}).',
  subjectRequired: 'Subject is required',
  descriptionTooShort: 'Description must be at least 20 characters long',
  /** Limits and types the spec does not word. */
  tooLong: 'Must be at most {max} characters',
  sendFailed: 'Error of send',
  sending: 'Sending',
  /** The 429 of the contact API (English keeps its one wording for every count). */
  tooManyMessages: {
    one: 'You have sent too many messages. Please wait {count} seconds and try again.',
    other: 'You have sent too many messages. Please wait {count} seconds and try again.',
  },
  successTitle: 'Message Successful',
  successText: 'Thank you for completing your message',
  nameLabel: 'Name',
  emailLabel: 'Email',
  subjectLabel: 'Subject',
  descriptionLabel: 'Event Description',
  send: 'Send',
} as const;
