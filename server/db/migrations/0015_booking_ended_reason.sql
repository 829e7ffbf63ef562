-- Why a booking ended is a column of its own (server/features/ticketing/state-machine.ts), not a reading of the
-- message it was given: 'cancelled' meant both "replaced by the buyer's newer hold" and "cancelled by the buyer",
-- told apart by comparing user-facing text. Today's rows are classified by that same text, once.
ALTER TABLE "bookings" ADD COLUMN "ended_reason" text;--> statement-breakpoint
UPDATE "bookings" SET "ended_reason" = CASE
  WHEN "status" = 'expired' THEN 'expired'
  WHEN "status" = 'cancelled' AND "failure_message" = 'You cancelled this reservation. Its tickets went back on sale.'
    THEN 'cancelled_by_buyer'
  WHEN "status" = 'cancelled' THEN 'replaced'
  WHEN "status" = 'failed' AND "failure_message" = 'This event is no longer available.' THEN 'event_deleted'
  WHEN "status" = 'failed' THEN 'payment_canceled'
  WHEN "status" = 'refunded' AND "failure_message" = 'You cancelled this reservation. Your payment was refunded.'
    THEN 'cancelled_by_buyer'
  WHEN "status" = 'refunded' AND "failure_message" = 'This event is no longer available. Your payment was refunded.'
    THEN 'event_deleted'
  WHEN "status" = 'refunded' THEN 'expired'
END WHERE "status" NOT IN ('pending', 'paid');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_ended_reason_known" CHECK ("bookings"."ended_reason" IN ('replaced', 'cancelled_by_buyer', 'expired', 'payment_canceled', 'event_deleted'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_ended_reason_iff_ended" CHECK (("bookings"."status" IN ('pending', 'paid')) = ("bookings"."ended_reason" IS NULL));
