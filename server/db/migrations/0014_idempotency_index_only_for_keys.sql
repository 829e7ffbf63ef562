-- bookings_user_idempotency_idx answers Idempotency-Key replays (`user_id = ? AND idempotency_key = ?`). Holding
-- every booking, keyed or not, it was also a list of each buyer's bookings, and eventry_reserve_tickets's
-- lookup of the batch's pending holds (`user_id = ANY (...) AND event_id = ? AND status = 'pending'`) could
-- be planned as a walk of it instead of probes of bookings_one_pending_per_user_event_idx. In two full runs of
-- the on-sale benchmark (2026-11-26, from 18:27 and 18:40 UTC) the buyers' paying phase drew that plan, with the
-- statistics taken as the run began: 206 and 245 index entries read per request instead of ~1.2 (every paid
-- booking of each buyer in the batch, under the event's row lock), 829 and 919 paid/s instead of ~1,400. Only
-- bookings with a key are indexed now (NULL keys never conflicted anyway, so uniqueness is unchanged), and a
-- lookup can use the index only if it compares idempotency_key itself. Most bookings have no key, so the
-- index is also smaller and cheaper to write.
DROP INDEX "bookings_user_idempotency_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_user_idempotency_idx" ON "bookings" USING btree ("user_id","idempotency_key") WHERE "bookings"."idempotency_key" IS NOT NULL;