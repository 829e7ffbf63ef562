import type { Messages } from '../types';
import { bookings } from './bookings';
import { catalogue } from './catalogue';
import { common } from './common';
import { payment } from './payment';
import { tickets } from './tickets';

/** Every Arabic text, in Modern Standard Arabic as Egyptian sites write it, with the same keys as English. */
export const ar: Messages = {
  common,
  catalogue,
  payment,
  bookings,
  tickets,
};
