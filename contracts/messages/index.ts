import { adminMessages } from './admin';
import { bookingsMessages } from './bookings';
import { catalogueMessages } from './catalogue';
import { commonMessages } from './common';
import { doorMessages } from './door';
import { doorStaffMessages } from './door-staff';
import { eventFormMessages } from './event-form';
import { loginMessages } from './login';
import { paymentMessages } from './payment';
import { profileMessages } from './profile';
import { resetPasswordMessages } from './reset-password';
import { signupMessages } from './signup';
import { ticketsMessages } from './tickets';

export { EXAMPLE_EMAIL, withExampleEmail } from './example-email';

/**
 * Every user-facing text of the spec, word for word (spelling included), one module per area so that a
 * page's JavaScript carries only its own texts (the web app imports the area modules; the server this).
 */
export const messages = {
  common: commonMessages,
  catalogue: catalogueMessages,
  login: loginMessages,
  signup: signupMessages,
  resetPassword: resetPasswordMessages,
  profile: profileMessages,
  eventForm: eventFormMessages,
  admin: adminMessages,
  payment: paymentMessages,
  bookings: bookingsMessages,
  tickets: ticketsMessages,
  door: doorMessages,
  doorStaff: doorStaffMessages,
} as const;
