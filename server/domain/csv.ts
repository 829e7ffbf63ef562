import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * CSV as spreadsheets read it (RFC 4180, CRLF line ends). A cell that starts with a character a spreadsheet
 * takes for the start of a formula (= + - @, a tab or a carriage return) gets a leading apostrophe, so that a
 * buyer named '=HYPERLINK(…)' is shown as text and never run (OWASP's advice on CSV injection).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** Excel opens a UTF-8 file as such (Arabic names intact) only when it starts with a byte-order mark. */
export const UTF8_BOM = '\uFEFF';

/** Sends a CSV file as a download that no cache keeps. */
export function sendCsv(reply: FastifyReply, file: { fileName: string; body: string }): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(file.body);
}

/**
 * The part of a CSV download route's schema that says what it answers (OpenAPI): the file, or one of `errors`
 * (the route's problem answers by status).
 */
export function csvResponses<Errors extends Record<number, z.ZodType>>(errors: Errors) {
  return {
    produces: ['text/csv'],
    response: { 200: z.string().describe('text/csv; charset=utf-8, starting with a UTF-8 byte-order mark'), ...errors },
  };
}
