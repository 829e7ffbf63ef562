-- A hold that took the place of its buyer's pending one (a new choice of quantity, or their own reservation in place
-- of a waitlist offer) says so from its insert on. The dashboard's funnel counted a reservation while it was not
-- replaced, so that choosing again changed the figures of the day the earlier hold was made, through a trigger in the
-- on-sale's hottest statement (decision 025); it now counts a buyer's first choice, which never changes.
ALTER TABLE "bookings" ADD COLUMN "replaces_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Earlier holds: a replacing hold was inserted in the transaction that ended the one it replaced, so its created_at
-- is that one's updated_at.
UPDATE "bookings" b SET "replaces_hold" = true
  FROM "bookings" a
 WHERE a."user_id" = b."user_id" AND a."event_id" = b."event_id" AND a."id" <> b."id"
   AND a."ended_reason" = 'replaced' AND a."updated_at" = b."created_at";--> statement-breakpoint
-- Closed days counted reservations the old way: they are forgotten and closed again by the next run of the job
-- (read from the orders until then). The lock keeps a close by a process still running the old code out meanwhile.
SELECT pg_advisory_xact_lock(727, 37);--> statement-breakpoint
DELETE FROM "dashboard_days";--> statement-breakpoint
DELETE FROM "dashboard_closed";
