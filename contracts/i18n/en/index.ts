import { accounts } from './accounts';
import { bookings } from './bookings';
import { catalogue } from './catalogue';
import { common } from './common';
import { login } from './login';
import { payment } from './payment';
import { profile } from './profile';
import { resetPassword } from './reset-password';
import { signup } from './signup';
import { tickets } from './tickets';

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
  login,
  signup,
  resetPassword,
  profile,
  accounts,
} as const;

export type EnglishMessages = typeof en;
