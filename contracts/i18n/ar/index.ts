import type { Messages } from '../types';
import { catalogue } from './catalogue';
import { common } from './common';

/** Every Arabic text, in Modern Standard Arabic as Egyptian sites write it, with the same keys as English. */
export const ar: Messages = {
  common,
  catalogue,
};
