-- Reservations look a batch's pending holds up with one probe of the unique index per buyer.
--
-- bookings (event_id, status) served no query of the app, and it misled the planner inside
-- eventry_reserve_tickets: a buyer's pending hold was looked up by scanning every pending entry of the
-- event, dead ones included (a status change leaves the old entry behind until vacuum), instead of
-- probing bookings_one_pending_per_user_event_idx. During an on-sale that scan grew with every
-- reservation while the event row was locked. Without it the lookup has only the unique probe to use.
DROP INDEX "bookings_event_status_idx";

-- The function was restated here to lock and read the holds in one statement, probe each Idempotency-Key
-- and never scan a table; that definition is now repeatable/eventry_reserve_tickets.sql (decision 009).
