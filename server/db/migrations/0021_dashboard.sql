-- The organiser dashboard (issue 37): page views per event and day for the funnel, and the indexes its figures
-- are read by. None of them is touched by a reservation: the paid index gets an entry when a booking is paid, the
-- BRIN index summarises ranges of pages, the others cover refunds made and tickets checked in.
CREATE TABLE "page_views" (
	"event_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "page_views_event_id_day_pk" PRIMARY KEY("event_id","day")
);
--> statement-breakpoint
CREATE INDEX "bookings_paid_idx" ON "bookings" USING btree ("event_id","paid_at") WHERE "bookings"."paid_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "bookings_created_brin_idx" ON "bookings" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "refunds_completed_idx" ON "refunds" USING btree ("completed_at") WHERE "refunds"."status" = 'succeeded';--> statement-breakpoint
CREATE INDEX "tickets_checked_in_idx" ON "tickets" USING btree ("event_id","checked_in_at") WHERE "tickets"."checked_in_at" IS NOT NULL;