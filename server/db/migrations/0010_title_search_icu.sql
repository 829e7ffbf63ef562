-- Title searches lower-case with ICU's Unicode rules instead of the database locale's: the embedded cluster
-- is created with the C locale, whose lower() leaves 'É' and 'Ö' as they are, so 'élan' never found 'Élan'.
-- "und-x-icu" exists in every PostgreSQL built with ICU (the default since 16, and Debian's and the
-- embedded binaries' builds before that). The index is on the expression the searches use (titleKey).
DROP INDEX "events_title_prefix_idx";--> statement-breakpoint
CREATE INDEX "events_title_prefix_idx" ON "events" USING btree (lower("title" COLLATE "und-x-icu") text_pattern_ops);
