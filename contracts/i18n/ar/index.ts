import type { Messages } from '../types';
import { accounts } from './accounts';
import { catalogue } from './catalogue';
import { common } from './common';
import { login } from './login';
import { profile } from './profile';
import { resetPassword } from './reset-password';
import { signup } from './signup';

/** Every Arabic text, in Modern Standard Arabic as Egyptian sites write it, with the same keys as English. */
export const ar: Messages = {
  common,
  catalogue,
  login,
  signup,
  resetPassword,
  profile,
  accounts,
};
