-- Title searches fold Arabic spelling variants too, as Lucene's Arabic normalizer does: alef with hamza,
-- madda or wasla is searched as a bare alef, teh marbuta as heh, alef maqsura as yeh, and the harakat and
-- the tatweel are dropped ('امسية' finds 'أمسية'). The expression is server/db/title-search.ts's; the index
-- is rebuilt on it.
DROP INDEX "events_title_prefix_idx";--> statement-breakpoint
CREATE INDEX "events_title_prefix_idx" ON "events" USING btree (translate(lower("title" COLLATE "und-x-icu"), 'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšșţťŧțùúûüũūŭůűųŵýÿŷźżžأإآٱةىًٌٍَُِّْٰـ', 'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssssttttuuuuuuuuuuwyyyzzzااااهي') text_pattern_ops);