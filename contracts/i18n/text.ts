import type { I18n } from './i18n';
import type { MessageKey, MessageParams } from './types';

/**
 * A message key with the values of its placeholders, as one string (zod issues carry only a message); messageText
 * reads it back in the page's language.
 */
export function msg(key: MessageKey, params?: MessageParams): string {
  return params ? `${key} ${JSON.stringify(params)}` : key;
}

const KEY_PATTERN = /^([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)(?: (\{.*\}))?$/s;

/**
 * A message given as data, in `i18n`'s language: a key, or a key with its values (`msg()`: zod's messages, the
 * API's problem details), or a plain text (a payment provider's own words), which is shown as it is. Its own
 * module: only forms and error handling need it, not a page's first load.
 */
export function messageText(i18n: Pick<I18n, 't'>, message: string): string {
  const match = KEY_PATTERN.exec(message);
  const key = match?.[1];
  if (!key) return message;
  let params: MessageParams | undefined;
  try {
    params = match[2] ? (JSON.parse(match[2]) as MessageParams) : undefined;
  } catch {
    params = undefined;
  }
  const text = i18n.t(key as never, params);
  return text === key ? message : text;
}
