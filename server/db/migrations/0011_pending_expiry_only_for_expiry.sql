-- bookings_pending_expiry_idx serves the expiry job (`status = 'pending' AND expires_at < now()`). With the
-- predicate `status = 'pending'` alone, any query on pending holds could use it as a list of every pending
-- hold, dead entries included: a hold paid or replaced leaves its entry until vacuum. On a fresh
-- database, planned before the statistics caught up, eventry_reserve_tickets looked a batch's holds up
-- that way (a bitmap scan of the whole index, then a filter on the buyers and the event) instead of
-- probing bookings_one_pending_per_user_event_idx, while holding the event's row lock: in the on-sale
-- benchmark every batch read 4,000 entries at the start of the run and 25,000 ten seconds later. A query
-- now implies this predicate only if it compares expires_at itself (a strict comparison implies IS NOT NULL).
DROP INDEX "bookings_pending_expiry_idx";--> statement-breakpoint
CREATE INDEX "bookings_pending_expiry_idx" ON "bookings" USING btree ("expires_at") WHERE "bookings"."status" = 'pending' AND "bookings"."expires_at" IS NOT NULL;