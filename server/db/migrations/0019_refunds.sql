-- Refunds and cancellations (issue 36, decision 020): each event's refund policy and when it was cancelled; what a
-- paid booking has given back (refunded_quantity, refunded_piasters); the refunds table (asked for, then carried
-- out by the provider, then applied; one in flight per booking); new reasons a booking ends for. The index of a
-- user's bookings covers refunded ones too, which Your History lists.
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"amount_piasters" integer NOT NULL,
	"fee_piasters" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"failure_message" text,
	"requested_by" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_quantity_positive" CHECK ("refunds"."quantity" > 0),
	CONSTRAINT "refunds_amounts" CHECK ("refunds"."amount_piasters" >= 0 AND "refunds"."fee_piasters" >= 0),
	CONSTRAINT "refunds_reason_known" CHECK ("refunds"."reason" IN ('buyer', 'organiser', 'event_cancelled')),
	CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" IN ('requested', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_ended_reason_known";--> statement-breakpoint
DROP INDEX "bookings_user_paid_idx";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "refunded_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "refunded_piasters" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_hours_before" integer DEFAULT 48 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancellation_fee_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_requested_idx" ON "refunds" USING btree ("booking_id") WHERE "refunds"."status" = 'requested';--> statement-breakpoint
CREATE INDEX "refunds_booking_idx" ON "refunds" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "bookings_user_owned_idx" ON "bookings" USING btree ("user_id") WHERE "bookings"."status" IN ('paid', 'refunded');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_refunded_quantity_range" CHECK ("bookings"."refunded_quantity" BETWEEN 0 AND "bookings"."quantity");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_refunded_piasters_range" CHECK ("bookings"."refunded_piasters" BETWEEN 0 AND "bookings"."total_piasters");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_ended_reason_known" CHECK ("bookings"."ended_reason" IN ('replaced', 'cancelled_by_buyer', 'expired', 'payment_canceled', 'event_deleted', 'refunded_to_buyer', 'refunded_by_organiser', 'event_cancelled'));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_refund_hours_range" CHECK ("events"."refund_hours_before" BETWEEN 0 AND 8760);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_cancellation_fee_range" CHECK ("events"."cancellation_fee_percent" BETWEEN 0 AND 100);