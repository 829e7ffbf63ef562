import type { Messages } from '../types';
import { admin } from './admin';
import { attendees } from './attendees';
import { catalogue } from './catalogue';
import { common } from './common';
import { door } from './door';
import { doorStaff } from './door-staff';
import { eventForm } from './event-form';

/** Every Arabic text, in Modern Standard Arabic as Egyptian sites write it, with the same keys as English. */
export const ar: Messages = {
  common,
  catalogue,
  eventForm,
  admin,
  attendees,
  door,
  doorStaff,
};
