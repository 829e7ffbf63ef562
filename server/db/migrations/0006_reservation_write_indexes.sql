-- Fewer index entries for every reservation to write. A reservation inserts a booking, and a buyer's
-- new hold turns the old one into 'cancelled' (status sits in index predicates, so that update writes
-- new entries in every index whose predicate it still meets). bookings (user_id, created_at) served only
-- the profile's paid tickets: a partial index of paid bookings serves them without an entry per hold, and
-- (user_id, idempotency_key) still finds a user's bookings for ON DELETE CASCADE. Payment intent ids are
-- unique where there is one; NULLs (every simulated payment, every hold before Stripe is asked) no longer
-- take an entry.
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_payment_intent_id_unique";--> statement-breakpoint
DROP INDEX "bookings_user_idx";--> statement-breakpoint
CREATE INDEX "bookings_user_paid_idx" ON "bookings" USING btree ("user_id") WHERE "bookings"."status" = 'paid';--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_payment_intent_idx" ON "bookings" USING btree ("payment_intent_id") WHERE "bookings"."payment_intent_id" IS NOT NULL;