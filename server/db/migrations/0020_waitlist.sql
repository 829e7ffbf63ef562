-- The waitlist (issue 36, decision 021): entries in join order, the offer a pending booking carries
-- (bookings.waitlist_entry_id), the reason an offer ends when its user says no, and the settings the database's
-- own code needs to make an offer (ticketing/sql/eventry_waitlist.sql).
CREATE TABLE "booking_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"waitlist_offer_hours" integer NOT NULL,
	"time_zone" text NOT NULL,
	"payment_provider" text,
	"app_url" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_settings_one_row" CHECK ("booking_settings"."id")
);
--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"accept_fewer" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"joined_seq" bigserial NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_quantity_range" CHECK ("waitlist_entries"."quantity" BETWEEN 1 AND 10),
	CONSTRAINT "waitlist_status_known" CHECK ("waitlist_entries"."status" IN ('waiting', 'offered', 'bought', 'expired', 'declined', 'left', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_ended_reason_known";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "waitlist_entry_id" uuid;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_one_live_idx" ON "waitlist_entries" USING btree ("event_id","user_id") WHERE "waitlist_entries"."status" IN ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_line_idx" ON "waitlist_entries" USING btree ("event_id","joined_seq") WHERE "waitlist_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_user_idx" ON "waitlist_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "bookings_waitlist_entry_idx" ON "bookings" USING btree ("waitlist_entry_id") WHERE "bookings"."waitlist_entry_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_ended_reason_known" CHECK ("bookings"."ended_reason" IN ('replaced', 'cancelled_by_buyer', 'expired', 'payment_canceled', 'event_deleted', 'refunded_to_buyer', 'refunded_by_organiser', 'event_cancelled', 'offer_declined'));