-- Payments a hold had before the buyer chose another way to pay. A Paymob intention cannot be called off and
-- stays payable until its hold's end as it was then (payable_until); once that has passed the reconciliation job asks
-- Paymob about it once (ticketing/repository.ts findReplacedPaymentsToAsk), and settles or refunds money it took
-- whose callback never came.
CREATE TABLE "replaced_payments" (
	"provider" text NOT NULL,
	"reference" text NOT NULL,
	"booking_id" uuid NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payable_until" timestamp with time zone NOT NULL,
	"asked_at" timestamp with time zone,
	CONSTRAINT "replaced_payments_provider_reference_pk" PRIMARY KEY("provider","reference")
);
--> statement-breakpoint
ALTER TABLE "replaced_payments" ADD CONSTRAINT "replaced_payments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replaced_payments_to_ask_idx" ON "replaced_payments" USING btree ("payable_until") WHERE "replaced_payments"."asked_at" IS NULL;