import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Lower-case letters with a diacritic, and the plain letter each one is searched as (position by position,
 * for translate()). Lower-casing runs first, so capitals are covered too.
 */
const ACCENTED = 'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšșţťŧțùúûüũūŭůűųŵýÿŷźżž';
const PLAIN = 'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssssttttuuuuuuuuuuwyyyzzz';

/**
 * A title (or a search text) as title searches compare it: lower-cased by ICU's Unicode rules whatever the
 * database's locale (the embedded one uses the C locale, whose lower() only knows A-Z), and with the
 * diacritics of Latin letters dropped, so 'elan' finds 'Élan' and 'café' finds 'Cafe'. Both strings are
 * literals in the SQL: migration 0012 indexes this very expression for prefix searches
 * (events_title_prefix_idx), and a query matches the index only with the same expression.
 */
export function titleSearchKey(text: SQLWrapper): SQL {
  return sql`translate(lower(${text} COLLATE "und-x-icu"), ${sql.raw(`'${ACCENTED}'`)}, ${sql.raw(`'${PLAIN}'`)})`;
}
