import { catalogue } from './catalogue';
import { common } from './common';
import { contact } from './contact';
import { emails } from './emails';
import { problems } from './problems';

/**
 * Every English text, by namespace: the spec's word for word (spelling included), then ours. Each namespace is
 * one file; contracts/i18n/bundles.ts says which pages receive it.
 */
export const en = {
  common,
  catalogue,
  contact,
  problems,
  emails,
} as const;

export type EnglishMessages = typeof en;
