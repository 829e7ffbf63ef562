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

/**
 * Every English text, by namespace: the spec's word for word (spelling included), then ours. Each namespace is
 * one file; contracts/i18n/bundles.ts says which pages receive it.
 */
export const en = {
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
} as const;

export type EnglishMessages = typeof en;
