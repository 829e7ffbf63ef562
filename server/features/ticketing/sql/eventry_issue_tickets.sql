-- Tickets follow their booking: the live definition of the triggers that issue and void them, applied on
-- every start after the migrations (server/db/migrate.ts). They run inside whatever statement moves a
-- booking (the pay and payLate transitions of ../state-machine.ts, from any of the payment paths), so a
-- booking is never paid without its tickets, nor its tickets valid once it is not paid.
--
-- Row triggers with a WHEN clause: the condition is checked without entering PL/pgSQL, so the statements of
-- an on-sale that do not pay (reservations, replacements, expiries) cost nothing more.

-- A booking that becomes paid (or is written paid) gets its tickets 1..quantity, each with a short code
-- unique within the event (migration 0016: eventry_ticket_code). A code already taken is drawn again.
CREATE OR REPLACE FUNCTION eventry_issue_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  issued int;
BEGIN
  INSERT INTO tickets (booking_id, event_id, number, code)
    SELECT NEW.id, NEW.event_id, s.number, eventry_ticket_code() FROM generate_series(1, NEW.quantity) AS s(number)
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS issued = ROW_COUNT;
  IF issued = NEW.quantity THEN
    RETURN NULL;
  END IF;
  -- A code already taken in the event (about one chance in 10^12 a pair): the seats still missing draw again.
  FOR pass IN 1..5 LOOP
    INSERT INTO tickets (booking_id, event_id, number, code)
      SELECT NEW.id, NEW.event_id, s.number, eventry_ticket_code()
        FROM generate_series(1, NEW.quantity) AS s(number)
       WHERE NOT EXISTS (SELECT 1 FROM tickets t WHERE t.booking_id = NEW.id AND t.number = s.number)
    ON CONFLICT DO NOTHING;
    IF NOT EXISTS (SELECT 1 FROM generate_series(1, NEW.quantity) AS s(number)
                    WHERE NOT EXISTS (SELECT 1 FROM tickets t WHERE t.booking_id = NEW.id AND t.number = s.number)) THEN
      RETURN NULL;
    END IF;
  END LOOP;
  RAISE EXCEPTION 'could not draw unique ticket codes for booking %', NEW.id;
END $$;

-- A booking that stops being paid (refunded, cancelled) voids its tickets: check-in refuses them even though
-- their signatures are good.
CREATE OR REPLACE FUNCTION eventry_void_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET voided_at = now() WHERE booking_id = NEW.id AND voided_at IS NULL;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER eventry_issue_tickets_on_pay AFTER UPDATE ON bookings
  FOR EACH ROW WHEN (NEW.status = 'paid' AND OLD.status <> 'paid') EXECUTE FUNCTION eventry_issue_tickets();
CREATE OR REPLACE TRIGGER eventry_issue_tickets_on_insert AFTER INSERT ON bookings
  FOR EACH ROW WHEN (NEW.status = 'paid') EXECUTE FUNCTION eventry_issue_tickets();
CREATE OR REPLACE TRIGGER eventry_void_tickets_on_unpay AFTER UPDATE ON bookings
  FOR EACH ROW WHEN (OLD.status = 'paid' AND NEW.status <> 'paid') EXECUTE FUNCTION eventry_void_tickets();
