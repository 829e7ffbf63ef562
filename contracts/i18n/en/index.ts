import { bookings } from './bookings';
import { catalogue } from './catalogue';
import { common } from './common';
import { payment } from './payment';
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
} as const;

export type EnglishMessages = typeof en;
