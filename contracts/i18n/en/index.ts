import { admin } from './admin';
import { attendees } from './attendees';
import { catalogue } from './catalogue';
import { common } from './common';
import { door } from './door';
import { doorStaff } from './door-staff';
import { eventForm } from './event-form';

/**
 * Every English text, by namespace: the spec's word for word (spelling included), then ours. Each namespace is
 * one file; contracts/i18n/bundles.ts says which pages receive it.
 */
export const en = {
  common,
  catalogue,
  eventForm,
  admin,
  attendees,
  door,
  doorStaff,
} as const;

export type EnglishMessages = typeof en;
