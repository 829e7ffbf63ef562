-- Paymob beside Stripe (issue 35): a booking records how its payment is made (card, wallet or kiosk cash) and the
-- kiosk's bill reference; a user keeps the mobile number Paymob needs. The provider's name is checked now that
-- there are three. The reconciliation job finds the Paymob payments not settled yet through a partial index that
-- no other booking enters.
ALTER TABLE "bookings" ADD COLUMN "payment_method" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cash_reference" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
CREATE INDEX "bookings_paymob_unsettled_idx" ON "bookings" USING btree ("created_at") WHERE "bookings"."payment_provider" = 'paymob' AND "bookings"."status" IN ('pending', 'expired', 'cancelled', 'failed');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_payment_provider_known" CHECK ("bookings"."payment_provider" IN ('stripe', 'simulated', 'paymob'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_payment_method_known" CHECK ("bookings"."payment_method" IN ('card', 'wallet', 'cash'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_phone_egyptian_mobile" CHECK ("users"."phone" ~ '^\+201[0125][0-9]{8}$');