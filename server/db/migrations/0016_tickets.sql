-- Tickets (server/features/tickets/): a row per seat of a paid booking, door staff granted per event, and the
-- scans devices made offline; and app_secrets, where the ticket signing key is kept when TICKET_SIGNING_KEY
-- does not give one. Tickets are issued by the trigger of
-- server/features/ticketing/sql/eventry_issue_tickets.sql; this migration issues those of the bookings paid
-- before it, with the function that makes their short codes.
CREATE TABLE "app_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_in_scans" (
	"nonce" uuid PRIMARY KEY NOT NULL,
	"ticket_id" uuid NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"scanned_by" text,
	"outcome" text NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "door_staff" (
	"user_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "door_staff_user_id_event_id_pk" PRIMARY KEY("user_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"code" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"voided_at" timestamp with time zone,
	"checked_in_at" timestamp with time zone,
	"checked_in_by" text,
	"checked_in_by_name" text,
	"extra_admissions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tickets_number_range" CHECK ("tickets"."number" BETWEEN 1 AND 10),
	CONSTRAINT "tickets_checked_in_by_with_time" CHECK ("tickets"."checked_in_at" IS NOT NULL OR "tickets"."checked_in_by" IS NULL)
);
--> statement-breakpoint
ALTER TABLE "check_in_scans" ADD CONSTRAINT "check_in_scans_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_scans" ADD CONSTRAINT "check_in_scans_scanned_by_users_id_fk" FOREIGN KEY ("scanned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_staff" ADD CONSTRAINT "door_staff_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_staff" ADD CONSTRAINT "door_staff_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_in_scans_ticket_idx" ON "check_in_scans" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "door_staff_event_idx" ON "door_staff" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_booking_number_idx" ON "tickets" USING btree ("booking_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_event_code_idx" ON "tickets" USING btree ("event_id","code");--> statement-breakpoint
-- A ticket's short code: 10 characters of an alphabet without look-alikes (no 0/O, 1/I/L), the same as
-- TICKET_CODE_ALPHABET in contracts/tickets.ts. Each character takes two bytes of gen_random_uuid() (strong
-- randomness, built into PostgreSQL) from the positions a version-4 uuid leaves wholly random; two bytes
-- modulo 31 favour no character by more than 1 in 2,000.
CREATE OR REPLACE FUNCTION eventry_ticket_code() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  positions constant int[] := ARRAY[0, 1, 2, 3, 4, 5, 7, 9, 10, 11];
  a bytea := uuid_send(gen_random_uuid());
  b bytea := uuid_send(gen_random_uuid());
  code text := '';
BEGIN
  FOR i IN 1..10 LOOP
    code := code || substr(alphabet, 1 + (get_byte(a, positions[i]) * 256 + get_byte(b, positions[i])) % 31, 1);
  END LOOP;
  RETURN code;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  -- A code already taken in its event (about one chance in 10^12 per pair) leaves that seat for the next pass.
  FOR pass IN 1..5 LOOP
    INSERT INTO tickets (booking_id, event_id, number, code, issued_at)
      SELECT b.id, b.event_id, s.number, eventry_ticket_code(), COALESCE(b.paid_at, now())
        FROM bookings b CROSS JOIN LATERAL generate_series(1, b.quantity) AS s(number)
       WHERE b.status = 'paid'
         AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.booking_id = b.id AND t.number = s.number)
      ON CONFLICT DO NOTHING;
    EXIT WHEN NOT FOUND;
  END LOOP;
END $$;
