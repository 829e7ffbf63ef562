import type { Messages } from '../types';
import { catalogue } from './catalogue';
import { common } from './common';
import { contact } from './contact';
import { emails } from './emails';
import { problems } from './problems';

/** Every Arabic text, in Modern Standard Arabic as Egyptian sites write it, with the same keys as English. */
export const ar: Messages = {
  common,
  catalogue,
  contact,
  problems,
  emails,
};
