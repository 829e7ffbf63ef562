import type { Messages } from '../types';
import { accounts } from './accounts';
import { admin } from './admin';
import { attendees } from './attendees';
import { bookings } from './bookings';
import { catalogue } from './catalogue';
import { common } from './common';
import { contact } from './contact';
import { dashboard } from './dashboard';
import { door } from './door';
import { doorStaff } from './door-staff';
import { emails } from './emails';
import { eventForm } from './event-form';
import { login } from './login';
import { payment } from './payment';
import { problems } from './problems';
import { profile } from './profile';
import { resetPassword } from './reset-password';
import { signup } from './signup';
import { tickets } from './tickets';
import { waitlist } from './waitlist';

/** Every Arabic text, in Modern Standard Arabic as Egyptian sites write it, with the same keys as English. */
export const ar: Messages = {
  common,
  catalogue,
  payment,
  bookings,
  tickets,
  waitlist,
  login,
  signup,
  resetPassword,
  profile,
  accounts,
  eventForm,
  admin,
  attendees,
  dashboard,
  door,
  doorStaff,
  contact,
  problems,
  emails,
};
