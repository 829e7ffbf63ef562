-- The dashboard's closed days (decision 025). dashboard_days holds, per time zone, event, local day and way of
-- paying, the sums of the orders of days that are over; dashboard_closed says, per time zone, the local midnight
-- before which every day is summed there. A request reads those sums for closed days and the orders since that
-- midnight (features/dashboard/repository.ts), so that it no longer reads every booking of an event.
--
-- Why the sums stay equal to the orders:
-- * A day closes (eventry_dashboard_close) once it is over and no transaction that began before its end is still
--   running: a row written with now() (the transaction's start) by a transaction that began after the end lies after
--   it. The day's sums are made by one statement that sees every commit before it; the boundary moves in the same
--   transaction, so a crash closes nothing and a second run finds nothing left to close.
-- * Any other change whose instant lies in a closed day (a refund of a booking paid on a closed day, a ticket
--   voided after it was admitted, an offline scan synced late, a row moved into the past) is added to the day's
--   sums in its own transaction, by the triggers below, as rows of differences (the old row's part taken off, the
--   new row's added; no key: two such changes never wait for each other).
-- * The hot paths never call them. A trigger's WHEN asks whether one of the row's instants is before now() (the
--   transaction's start); a reservation, a payment, a refund and a check-in at the door write now() itself, which is
--   not. Only a row with an instant older than its transaction can be in a closed day, and only then is the trigger
--   function called.
-- * A trigger and the closing step meet through one advisory lock (727, 37): triggers take it shared, the closing
--   step exclusively, before it sums. A change whose trigger ran before the close commits before the close sums
--   (the close waits for its lock), so the sums include it; a change whose trigger runs after waits for the close to
--   commit and then reads the new boundary, so it adds its difference to sums that did not include it.
-- Applied on every start after the migrations (server/db/migrate.ts).

-- Closes the days of `p_zone` that can be closed (up to `p_through` when given); returns the last day closed now or
-- before, or null when none is. Another zone's sums are dropped first: APP_TIMEZONE changed, and they count other days.
CREATE OR REPLACE FUNCTION eventry_dashboard_close(p_zone text, p_through date DEFAULT NULL)
RETURNS date LANGUAGE plpgsql AS $$
DECLARE
  oldest timestamptz;
  last_day date;
  lo timestamptz;
  hi timestamptz;
  closed record;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'eventry_dashboard_close needs READ COMMITTED: its sums must see every commit before them';
  END IF;
  -- The oldest transaction running in this database (a session whose state this role may not read counts as older
  -- than any day: closing waits for it).
  SELECT min(CASE WHEN a.state IS NULL THEN '-infinity'::timestamptz ELSE a.xact_start END) INTO oldest
    FROM pg_stat_activity a
   WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'
     AND (a.xact_start IS NOT NULL OR a.state IS NULL);
  IF oldest = '-infinity'::timestamptz THEN
    RETURN (SELECT c.last_day FROM dashboard_closed c WHERE c.time_zone = p_zone);
  END IF;
  last_day := (LEAST(now(), COALESCE(oldest, now())) AT TIME ZONE p_zone)::date - 1;
  IF p_through IS NOT NULL AND p_through < last_day THEN
    last_day := p_through;
  END IF;
  IF last_day IS NULL THEN
    RETURN NULL;
  END IF;
  hi := (last_day + 1)::timestamp AT TIME ZONE p_zone;

  -- Changes to closed days that are being made finish first; those that start now wait for this close.
  PERFORM set_config('lock_timeout', '5s', true);
  PERFORM pg_advisory_xact_lock(727, 37);

  DELETE FROM dashboard_days WHERE time_zone IN (SELECT c.time_zone FROM dashboard_closed c WHERE c.time_zone <> p_zone);
  DELETE FROM dashboard_closed WHERE time_zone <> p_zone;
  SELECT c.closed_before, c.last_day INTO closed FROM dashboard_closed c WHERE c.time_zone = p_zone FOR UPDATE;
  lo := COALESCE(closed.closed_before, '-infinity'::timestamptz);
  IF hi <= lo THEN
    RETURN closed.last_day;
  END IF;

  INSERT INTO dashboard_days (time_zone, event_id, day, payment_provider, payment_method, sold, sold_tickets,
                              gross_piasters, held_tickets, reservations, refunded_tickets, refunded_piasters, checked_in)
  SELECT p_zone, x.event_id, x.day, x.provider, x.method, sum(x.sold), sum(x.sold_tickets), sum(x.gross),
         sum(x.held), sum(x.made), sum(x.refunded_tickets), sum(x.refunded), sum(x.checked_in)
    FROM (
      SELECT b.event_id, (b.paid_at AT TIME ZONE p_zone)::date AS day, b.payment_provider AS provider,
             b.payment_method AS method, 1 AS sold, b.quantity AS sold_tickets, b.total_piasters::bigint AS gross,
             CASE WHEN b.status = 'paid' THEN b.quantity - b.refunded_quantity ELSE 0 END AS held, 0 AS made,
             0 AS refunded_tickets, 0::bigint AS refunded, 0 AS checked_in
        FROM bookings b WHERE b.paid_at >= lo AND b.paid_at < hi
      UNION ALL
      SELECT b.event_id, (b.created_at AT TIME ZONE p_zone)::date, NULL, NULL, 0, 0, 0, 0, 1, 0, 0, 0
        FROM bookings b
       WHERE b.created_at >= lo AND b.created_at < hi AND NOT b.replaces_hold
      UNION ALL
      SELECT b.event_id, (r.completed_at AT TIME ZONE p_zone)::date, NULL, NULL, 0, 0, 0, 0, 0, r.quantity,
             r.amount_piasters, 0
        FROM refunds r JOIN bookings b ON b.id = r.booking_id
       WHERE r.status = 'succeeded' AND r.completed_at >= lo AND r.completed_at < hi
      UNION ALL
      SELECT t.event_id, (t.checked_in_at AT TIME ZONE p_zone)::date, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 1
        FROM tickets t WHERE t.checked_in_at >= lo AND t.checked_in_at < hi AND t.voided_at IS NULL
    ) AS x
   GROUP BY x.event_id, x.day, x.provider, x.method;

  -- The differences triggers added to earlier days, folded into one row per day and way of paying.
  WITH twice AS (
    SELECT d.event_id, d.day, d.payment_provider, d.payment_method FROM dashboard_days d
     WHERE d.time_zone = p_zone AND d.day < (lo AT TIME ZONE p_zone)::date
     GROUP BY 1, 2, 3, 4 HAVING count(*) > 1),
  gone AS (
    DELETE FROM dashboard_days d USING twice t
     WHERE d.time_zone = p_zone AND d.event_id = t.event_id AND d.day = t.day
       AND d.payment_provider IS NOT DISTINCT FROM t.payment_provider
       AND d.payment_method IS NOT DISTINCT FROM t.payment_method
    RETURNING d.*)
  INSERT INTO dashboard_days (time_zone, event_id, day, payment_provider, payment_method, sold, sold_tickets,
                              gross_piasters, held_tickets, reservations, refunded_tickets, refunded_piasters, checked_in)
  SELECT p_zone, g.event_id, g.day, g.payment_provider, g.payment_method, sum(g.sold), sum(g.sold_tickets),
         sum(g.gross_piasters), sum(g.held_tickets), sum(g.reservations), sum(g.refunded_tickets),
         sum(g.refunded_piasters), sum(g.checked_in)
    FROM gone g
   GROUP BY g.event_id, g.day, g.payment_provider, g.payment_method
  HAVING sum(g.sold) <> 0 OR sum(g.sold_tickets) <> 0 OR sum(g.gross_piasters) <> 0 OR sum(g.held_tickets) <> 0
      OR sum(g.reservations) <> 0 OR sum(g.refunded_tickets) <> 0 OR sum(g.refunded_piasters) <> 0
      OR sum(g.checked_in) <> 0;

  INSERT INTO dashboard_closed (time_zone, closed_before, last_day, closed_at)
  VALUES (p_zone, hi, last_day, now())
  ON CONFLICT (time_zone) DO UPDATE
    SET closed_before = EXCLUDED.closed_before, last_day = EXCLUDED.last_day, closed_at = EXCLUDED.closed_at;
  RETURN last_day;
END $$;

-- Forgets every closed day (the figures are read from the orders until the next close): after rows of closed days
-- were written with triggers off (a bulk load with session_replication_role = replica).
CREATE OR REPLACE FUNCTION eventry_dashboard_reopen() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(727, 37);
  DELETE FROM dashboard_days;
  DELETE FROM dashboard_closed;
END $$;

-- Adds one row's part of a day's figures (with a sign) to the closed days of every time zone whose closed days
-- include `p_at`: the triggers' one way into dashboard_days. Taking the lock shared first, then reading where the
-- closed days end, is what makes a change either counted by a close or added after it (see above).
CREATE OR REPLACE FUNCTION eventry_dashboard_add(
  p_event uuid, p_at timestamptz, p_provider text, p_method text, p_sold integer, p_sold_tickets integer,
  p_gross bigint, p_held integer, p_made integer, p_refunded_tickets integer, p_refunded bigint, p_checked_in integer
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_event IS NULL OR p_at IS NULL OR (p_sold, p_sold_tickets, p_gross, p_held, p_made, p_refunded_tickets,
                                          p_refunded, p_checked_in) = (0, 0, 0, 0, 0, 0, 0, 0) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(727, 37);
  INSERT INTO dashboard_days (time_zone, event_id, day, payment_provider, payment_method, sold, sold_tickets,
                              gross_piasters, held_tickets, reservations, refunded_tickets, refunded_piasters, checked_in)
  SELECT c.time_zone, p_event, (p_at AT TIME ZONE c.time_zone)::date, p_provider, p_method, p_sold, p_sold_tickets,
         p_gross, p_held, p_made, p_refunded_tickets, p_refunded, p_checked_in
    FROM dashboard_closed c
   WHERE p_at < c.closed_before;
END $$;

-- A booking's sale (by the day it was paid): its count, tickets and money, and the tickets its buyer holds now.
-- In an INSERT trigger OLD is null, in a DELETE trigger NEW is: eventry_dashboard_add skips a null event.
CREATE OR REPLACE FUNCTION eventry_dashboard_on_sale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM eventry_dashboard_add(OLD.event_id, OLD.paid_at, OLD.payment_provider, OLD.payment_method, -1,
                                -OLD.quantity, -OLD.total_piasters::bigint,
                                CASE WHEN OLD.status = 'paid' THEN OLD.refunded_quantity - OLD.quantity ELSE 0 END,
                                0, 0, 0, 0);
  PERFORM eventry_dashboard_add(NEW.event_id, NEW.paid_at, NEW.payment_provider, NEW.payment_method, 1,
                                NEW.quantity, NEW.total_piasters::bigint,
                                CASE WHEN NEW.status = 'paid' THEN NEW.quantity - NEW.refunded_quantity ELSE 0 END,
                                0, 0, 0, 0);
  RETURN NULL;
END $$;

-- A booking's reservation (by the day it was made): counted unless it took the place of its buyer's pending hold,
-- so that a buyer's choices count once, on the day of the first.
CREATE OR REPLACE FUNCTION eventry_dashboard_on_reservation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT OLD.replaces_hold THEN
    PERFORM eventry_dashboard_add(OLD.event_id, OLD.created_at, NULL, NULL, 0, 0, 0, 0, -1, 0, 0, 0);
  END IF;
  IF NOT NEW.replaces_hold THEN
    PERFORM eventry_dashboard_add(NEW.event_id, NEW.created_at, NULL, NULL, 0, 0, 0, 0, 1, 0, 0, 0);
  END IF;
  RETURN NULL;
END $$;

-- A refund that succeeded (by the day it did), of its booking's event. A refund deleted with its booking finds no
-- booking here: the booking's own trigger took it off before (eventry_dashboard_on_booking_delete).
CREATE OR REPLACE FUNCTION eventry_dashboard_on_refund() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'succeeded' THEN
    PERFORM eventry_dashboard_add(b.event_id, OLD.completed_at, NULL, NULL, 0, 0, 0, 0, 0, -OLD.quantity,
                                  -OLD.amount_piasters::bigint, 0)
       FROM bookings b WHERE b.id = OLD.booking_id;
  END IF;
  IF NEW.status = 'succeeded' THEN
    PERFORM eventry_dashboard_add(b.event_id, NEW.completed_at, NULL, NULL, 0, 0, 0, 0, 0, NEW.quantity,
                                  NEW.amount_piasters::bigint, 0)
       FROM bookings b WHERE b.id = NEW.booking_id;
  END IF;
  RETURN NULL;
END $$;

-- A booking about to be deleted (with its buyer's account): its refunds go with it, after it, when their event can
-- no longer be found from them, so their part of closed days is taken off here.
CREATE OR REPLACE FUNCTION eventry_dashboard_on_booking_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM eventry_dashboard_add(OLD.event_id, r.completed_at, NULL, NULL, 0, 0, 0, 0, 0, -r.quantity,
                                -r.amount_piasters::bigint, 0)
     FROM refunds r WHERE r.booking_id = OLD.id AND r.status = 'succeeded';
  RETURN OLD;
END $$;

-- A ticket admitted (by the day it was) while it stays valid.
CREATE OR REPLACE FUNCTION eventry_dashboard_on_check_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.voided_at IS NULL THEN
    PERFORM eventry_dashboard_add(OLD.event_id, OLD.checked_in_at, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, -1);
  END IF;
  IF NEW.voided_at IS NULL THEN
    PERFORM eventry_dashboard_add(NEW.event_id, NEW.checked_in_at, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 1);
  END IF;
  RETURN NULL;
END $$;

-- The triggers. Each WHEN lets through only rows with an instant before now() (see above), and of those only the
-- changes that move a figure.
CREATE OR REPLACE TRIGGER eventry_dashboard_sale_insert AFTER INSERT ON bookings
  FOR EACH ROW WHEN (NEW.paid_at < now()) EXECUTE FUNCTION eventry_dashboard_on_sale();
CREATE OR REPLACE TRIGGER eventry_dashboard_sale_update AFTER UPDATE ON bookings
  FOR EACH ROW WHEN ((OLD.paid_at < now() OR NEW.paid_at < now()) AND (
    OLD.paid_at IS DISTINCT FROM NEW.paid_at OR (OLD.status = 'paid') <> (NEW.status = 'paid')
    OR OLD.refunded_quantity <> NEW.refunded_quantity OR OLD.quantity <> NEW.quantity
    OR OLD.total_piasters <> NEW.total_piasters OR OLD.event_id <> NEW.event_id
    OR OLD.payment_provider IS DISTINCT FROM NEW.payment_provider
    OR OLD.payment_method IS DISTINCT FROM NEW.payment_method))
  EXECUTE FUNCTION eventry_dashboard_on_sale();
CREATE OR REPLACE TRIGGER eventry_dashboard_sale_delete AFTER DELETE ON bookings
  FOR EACH ROW WHEN (OLD.paid_at IS NOT NULL) EXECUTE FUNCTION eventry_dashboard_on_sale();

CREATE OR REPLACE TRIGGER eventry_dashboard_reservation_insert AFTER INSERT ON bookings
  FOR EACH ROW WHEN (NEW.created_at < now()) EXECUTE FUNCTION eventry_dashboard_on_reservation();
CREATE OR REPLACE TRIGGER eventry_dashboard_reservation_update AFTER UPDATE ON bookings
  FOR EACH ROW WHEN ((OLD.created_at < now() OR NEW.created_at < now()) AND (
    OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.event_id <> NEW.event_id
    OR OLD.replaces_hold <> NEW.replaces_hold))
  EXECUTE FUNCTION eventry_dashboard_on_reservation();
CREATE OR REPLACE TRIGGER eventry_dashboard_reservation_delete AFTER DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION eventry_dashboard_on_reservation();

CREATE OR REPLACE TRIGGER eventry_dashboard_booking_delete BEFORE DELETE ON bookings
  FOR EACH ROW WHEN (OLD.paid_at IS NOT NULL) EXECUTE FUNCTION eventry_dashboard_on_booking_delete();

CREATE OR REPLACE TRIGGER eventry_dashboard_refund_insert AFTER INSERT ON refunds
  FOR EACH ROW WHEN (NEW.completed_at < now() AND NEW.status = 'succeeded')
  EXECUTE FUNCTION eventry_dashboard_on_refund();
CREATE OR REPLACE TRIGGER eventry_dashboard_refund_update AFTER UPDATE ON refunds
  FOR EACH ROW WHEN ((OLD.completed_at < now() OR NEW.completed_at < now()) AND (
    OLD.completed_at IS DISTINCT FROM NEW.completed_at OR (OLD.status = 'succeeded') <> (NEW.status = 'succeeded')
    OR OLD.quantity <> NEW.quantity OR OLD.amount_piasters <> NEW.amount_piasters
    OR OLD.booking_id <> NEW.booking_id))
  EXECUTE FUNCTION eventry_dashboard_on_refund();
CREATE OR REPLACE TRIGGER eventry_dashboard_refund_delete AFTER DELETE ON refunds
  FOR EACH ROW WHEN (OLD.status = 'succeeded') EXECUTE FUNCTION eventry_dashboard_on_refund();

CREATE OR REPLACE TRIGGER eventry_dashboard_check_in_insert AFTER INSERT ON tickets
  FOR EACH ROW WHEN (NEW.checked_in_at < now()) EXECUTE FUNCTION eventry_dashboard_on_check_in();
CREATE OR REPLACE TRIGGER eventry_dashboard_check_in_update AFTER UPDATE ON tickets
  FOR EACH ROW WHEN ((OLD.checked_in_at < now() OR NEW.checked_in_at < now()) AND (
    OLD.checked_in_at IS DISTINCT FROM NEW.checked_in_at OR (OLD.voided_at IS NULL) <> (NEW.voided_at IS NULL)
    OR OLD.event_id <> NEW.event_id))
  EXECUTE FUNCTION eventry_dashboard_on_check_in();
CREATE OR REPLACE TRIGGER eventry_dashboard_check_in_delete AFTER DELETE ON tickets
  FOR EACH ROW WHEN (OLD.checked_in_at IS NOT NULL) EXECUTE FUNCTION eventry_dashboard_on_check_in();
