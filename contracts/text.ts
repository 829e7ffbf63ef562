/**
 * Text people type, as the server keeps it: the rules shared by the contact form and the admin's event form.
 *
 * - Control characters (C0, DEL, C1) and the bidirectional embeddings, overrides and isolates are removed:
 *   they would reach an email header or reorder the text around them on the page. In one-line fields each
 *   becomes a space; a multi-line field keeps its line breaks and tabs (\r\n → \n) and drops the rest.
 * - Trimming also removes invisible format characters at either end (zero-width space, word joiner, byte
 *   order mark...), as text pasted from a web page often carries them.
 * - Minimum lengths count what shows: format characters inside the text (a zero-width joiner in an emoji,
 *   a zero-width non-joiner in Persian) are kept but not counted, so 'ab' followed by a zero-width space is
 *   still too short.
 */
const BIDI_CONTROLS = '\u202a-\u202e\u2066-\u2069';
const CONTROL = new RegExp(`[\\p{Cc}${BIDI_CONTROLS}]`, 'gu');
const CONTROL_EXCEPT_TAB_NEWLINE = new RegExp(`[^\\P{Cc}\\t\\n]|[${BIDI_CONTROLS}]`, 'gu');
const LEADING = /^[\s\p{Cf}]+/u;
const EDGE_CHARACTER = /^[\s\p{Cf}]$/u;
const FORMAT = /\p{Cf}/gu;

export function stripControlCharacters(value: string, keepLineBreaks = false): string {
  if (!keepLineBreaks) return value.replace(CONTROL, ' ');
  return value.replace(/\r\n?/g, '\n').replace(CONTROL_EXCEPT_TAB_NEWLINE, '');
}

/**
 * Control characters stripped, then white space and format characters trimmed from both ends. The end is
 * trimmed by a loop, not by a regular expression anchored at the end: /[\s\p{Cf}]+$/ retries from every
 * position of a long run of spaces followed by a letter, time that grows with the square of its length.
 */
export function cleanText(value: string, keepLineBreaks = false): string {
  const text = stripControlCharacters(value, keepLineBreaks).replace(LEADING, '');
  let end = text.length;
  while (end > 0) {
    // A character outside the BMP is two code units: test it whole.
    const width = end > 1 && isLowSurrogate(text.charCodeAt(end - 1)) ? 2 : 1;
    if (!EDGE_CHARACTER.test(text.slice(end - width, end))) break;
    end -= width;
  }
  return text.slice(0, end);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The length a minimum is checked against: format characters (zero-width and the like) do not count. */
export function visibleLength(value: string): number {
  return value.replace(FORMAT, '').length;
}

/**
 * What a text field that is not text says (an API client's mistake: the forms always send text): a message
 * key (contracts/i18n), worded in the request's language like the schemas' other messages.
 */
export const NOT_TEXT = 'problems.notText';

/**
 * The error of a required text field: its own 'required' message when the value is missing, NOT_TEXT when
 * it is something else (a number, a list), so that `12345678` as a password is not called missing.
 */
export function requiredOr(required: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? required : NOT_TEXT);
}
