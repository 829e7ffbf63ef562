-- Title searches ignore diacritics: 'elan' finds 'Élan', 'cafe' finds 'Café' (and 'café' finds 'Cafe'). The
-- searched expression (server/db/title-search.ts) lower-cases with ICU as before, then maps the accented
-- lower-case Latin letters to plain ones with translate(): no extension needed (unaccent is not in every
-- installation, nor installable without rights). The index is on that very expression.
DROP INDEX "events_title_prefix_idx";--> statement-breakpoint
CREATE INDEX "events_title_prefix_idx" ON "events" USING btree (translate(lower("title" COLLATE "und-x-icu"), 'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšșţťŧțùúûüũūŭůűųŵýÿŷźżž', 'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssssttttuuuuuuuuuuwyyyzzz') text_pattern_ops);