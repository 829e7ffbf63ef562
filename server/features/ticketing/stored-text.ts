import { i18nOf } from '../../../contracts/i18n/all';
import type { MessageKey } from '../../../contracts/i18n/types';

/**
 * A booking's failure_message, stored in English as it always was (the admin's exports and logs read it). The
 * pages never show it for the words: they decide by the booking's status and endedReason, in their language.
 */
export function storedText(key: MessageKey): string {
  return i18nOf('en').t(key);
}
