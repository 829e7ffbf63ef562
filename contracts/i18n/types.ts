import type { EnglishMessages } from './en';

/** A count's forms (Intl.PluralRules categories); English uses one and other, Arabic all six. */
export interface Plural {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}

/**
 * Another language's messages: the same namespaces and keys as English, each a text or a plural. Placeholders
 * ('{name}') must be the same as English's: contracts/i18n/messages.test.ts checks them.
 */
export type Translation<T> = {
  [K in keyof T]: T[K] extends string ? string : IsPlural<T[K]> extends true ? Plural : Translation<T[K]>;
};

/** A plural is an object of plural forms only, 'other' among them (a namespace may have a key 'other' too). */
export type PluralForm = keyof Plural;
type IsPlural<T> = T extends { other: string } ? (Exclude<keyof T, PluralForm> extends never ? true : false) : false;

export type Messages = Translation<EnglishMessages>;
export type Namespace = keyof EnglishMessages;

type Keys<T, Prefix extends string> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K}`
    : IsPlural<T[K]> extends true
      ? `${Prefix}${K}`
      : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** 'catalogue.seeMore', 'door.counts'…: every message's key. */
export type MessageKey = Keys<EnglishMessages, ''>;

/** Values for a message's placeholders: numbers are written in the page's digits. */
export type MessageParams = Record<string, string | number>;
