import { Fragment, type ReactNode } from 'react';

/**
 * A translated text whose placeholders are elements rather than words (a card number kept left to right
 * inside an Arabic sentence): the text's own parts in its own order, each placeholder replaced by its element.
 */
export function withElements(text: string, elements: Record<string, ReactNode>): ReactNode[] {
  // Odd parts are the placeholders' names, each once in a text: its name is its key.
  return text
    .split(/\{(\w+)\}/)
    .map((part, index) => (index % 2 === 1 ? <Fragment key={part}>{elements[part] ?? `{${part}}`}</Fragment> : part));
}
