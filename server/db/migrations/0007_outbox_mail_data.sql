-- Booking confirmations are queued as their data (a few hundred bytes of jsonb) instead of ~3 KB of text and
-- HTML: an on-sale writes one with every payment. The mail worker and the admin mailbox render them
-- (renderStoredMail); every other email keeps its bodies. A row has bodies or data.
ALTER TABLE "email_outbox" ALTER COLUMN "text_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "html_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "data" jsonb;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_body_check" CHECK (("email_outbox"."text_body" IS NOT NULL AND "email_outbox"."html_body" IS NOT NULL) OR "email_outbox"."data" IS NOT NULL);