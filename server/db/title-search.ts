import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Lower-case letters with a diacritic, and the plain letter each one is searched as (position by position,
 * for translate()). Lower-casing runs first, so capitals are covered too.
 */
const ACCENTED = 'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšșţťŧțùúûüũūŭůűųŵýÿŷźżž';
const PLAIN = 'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssssttttuuuuuuuuuuwyyyzzz';

/**
 * Arabic spellings that searchers commonly interchange, as Lucene's Arabic normalizer treats them: alef
 * with hamza above or below, with madda or wasla is searched as a bare alef, teh marbuta as heh, alef
 * maqsura as yeh; the harakat (fathatan to sukun, and the superscript alef) and the tatweel are dropped
 * (translate() deletes what has no counterpart).
 */
const ARABIC_VARIANTS = '\u0623\u0625\u0622\u0671\u0629\u0649';
const ARABIC_PLAIN = '\u0627\u0627\u0627\u0627\u0647\u064A';
const ARABIC_DROPPED = '\u064B\u064C\u064D\u064E\u064F\u0650\u0651\u0652\u0670\u0640';

const FROM = ACCENTED + ARABIC_VARIANTS + ARABIC_DROPPED;
const TO = PLAIN + ARABIC_PLAIN;

/**
 * A title (or a search text) as title searches compare it: lower-cased by ICU's Unicode rules whatever the
 * database's locale (the embedded one uses the C locale, whose lower() only knows A-Z), with the
 * diacritics of Latin letters dropped ('elan' finds 'Élan', 'café' finds 'Cafe') and Arabic spelling
 * variants and harakat folded ('امسية' finds 'أمسية'). Both strings are literals in the SQL: migration 0013
 * indexes this very expression for prefix searches (events_title_prefix_idx), and a query matches the
 * index only with the same expression.
 */
export function titleSearchKey(text: SQLWrapper): SQL {
  return sql`translate(lower(${text} COLLATE "und-x-icu"), ${sql.raw(`'${FROM}'`)}, ${sql.raw(`'${TO}'`)})`;
}
