-- The dashboard's live figures (features/dashboard): every change that moves an event's sales, refunds or
-- check-ins is announced on the 'eventry_sales' channel with the event's id, and each app process relays it to
-- the admins' live streams (GET /api/admin/live). Applied on every start after the migrations
-- (server/db/migrate.ts). PostgreSQL sends one notification per transaction and payload, so a batch of payments
-- of one event is one message, and none is sent for a transaction that rolls back.
CREATE OR REPLACE FUNCTION eventry_notify_sales() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('eventry_sales', NEW.event_id::text);
  RETURN NULL;
END $$;

-- A booking paid, given back (wholly or in part) or ending after it was paid.
CREATE OR REPLACE TRIGGER eventry_sales_on_booking AFTER UPDATE ON bookings
  FOR EACH ROW WHEN ((NEW.status = 'paid') <> (OLD.status = 'paid') OR NEW.refunded_quantity <> OLD.refunded_quantity)
  EXECUTE FUNCTION eventry_notify_sales();

-- A ticket admitted at the door (online or synced from an offline device).
CREATE OR REPLACE TRIGGER eventry_sales_on_check_in AFTER UPDATE ON tickets
  FOR EACH ROW WHEN (OLD.checked_in_at IS NULL AND NEW.checked_in_at IS NOT NULL)
  EXECUTE FUNCTION eventry_notify_sales();
