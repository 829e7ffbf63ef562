-- The waitlist's moves inside the database (contracts/waitlist.ts, decision 021): the live definition, applied
-- on every start after the migrations (server/db/migrate.ts). Triggers, like the tickets' (decision 017), so that
-- no path that gives tickets back can forget the line: a hold running out, a buyer letting one go, a refund, a
-- payment canceled, an offer declined or run out, the organiser raising the count. They all move
-- events.tickets_available up, and the offer is made in that same statement, under that event row's lock.
--
-- The offer is the state machine's `offer` transition (../state-machine.ts): a pending booking of the waiting
-- user, carrying the entry's id (offered, not held: capacity = available + held + offered + sold), until
-- WAITLIST_OFFER_HOURS from now but never past the event's start (booking_settings, written by every start).

-- Tickets came back to an event: offer them to its waiting entries in join order. An entry that wants more than
-- is left, and would not take fewer, keeps its place and is passed over this time (the tickets would otherwise
-- go to the public while people wait); an entry whose user holds tickets of the event already (one hold per
-- user and event) is passed over too. A BEFORE trigger: what it offers never reaches `tickets_available`.
CREATE OR REPLACE FUNCTION eventry_offer_returned_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cfg record;
  zone text;
  starts timestamptz;
  until timestamptz;
  entry record;
  q int;
  offered uuid;
BEGIN
  IF NEW.is_deleted OR NEW.cancelled_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.event_id = NEW.id AND w.status = 'waiting') THEN
    RETURN NEW;
  END IF;
  SELECT s.waitlist_offer_hours, s.time_zone, s.payment_provider, s.app_url INTO cfg FROM booking_settings s;
  zone := COALESCE(cfg.time_zone, 'Africa/Cairo');
  -- Sales have closed (the reservation function's rule), or the event has started: the tickets stay on sale.
  IF NEW.end_date < (now() AT TIME ZONE zone)::date THEN
    RETURN NEW;
  END IF;
  starts := (NEW.event_date + NEW.start_time) AT TIME ZONE zone;
  until := least(now() + make_interval(hours => COALESCE(cfg.waitlist_offer_hours, 12)), starts);
  IF until <= now() THEN
    RETURN NEW;
  END IF;

  FOR entry IN
    SELECT w.id, w.user_id, w.quantity, w.accept_fewer FROM waitlist_entries w
     WHERE w.event_id = NEW.id AND w.status = 'waiting'
     ORDER BY w.joined_seq
       FOR UPDATE
  LOOP
    EXIT WHEN NEW.tickets_available = 0;
    q := CASE WHEN entry.quantity <= NEW.tickets_available THEN entry.quantity
              WHEN entry.accept_fewer THEN NEW.tickets_available
              ELSE 0 END;
    CONTINUE WHEN q = 0;
    offered := NULL;
    INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, expires_at,
                          payment_provider, waitlist_entry_id)
    VALUES (entry.user_id, NEW.id, q, NEW.price_piasters, q * NEW.price_piasters, until,
            cfg.payment_provider, entry.id)
    ON CONFLICT DO NOTHING
    RETURNING id INTO offered;
    CONTINUE WHEN offered IS NULL;
    UPDATE waitlist_entries SET status = 'offered', updated_at = now() WHERE id = entry.id;
    NEW.tickets_available := NEW.tickets_available - q;
    -- The email with the link to pay, once per offer; rendered on the way out in the user's language (its
    -- subject too: ticketing/waitlist-mail.ts).
    INSERT INTO email_outbox (kind, to_address, subject, data, dedupe_key, next_attempt_at)
    SELECT 'waitlist-offer', u.email, NEW.title,
           jsonb_build_object('bookingId', offered, 'eventId', NEW.id, 'name', u.name, 'title', NEW.title,
                              'quantity', q, 'asked', entry.quantity, 'expiresAt', until, 'timeZone', zone,
                              'url', COALESCE(cfg.app_url, '') || '/payment?booking=' || offered,
                              'eventUrl', COALESCE(cfg.app_url, '') || '/event-details/' || NEW.id,
                              'lang', COALESCE(u.language, 'en')),
           'waitlist-offer:' || offered, date_trunc('milliseconds', now())
      FROM users u WHERE u.id = entry.user_id
    ON CONFLICT (dedupe_key) DO NOTHING;
    PERFORM pg_notify('eventry_mail', '');
  END LOOP;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER eventry_offer_returned_tickets BEFORE UPDATE OF tickets_available ON events
  FOR EACH ROW WHEN (NEW.tickets_available > OLD.tickets_available) EXECUTE FUNCTION eventry_offer_returned_tickets();

-- An event cancelled or deleted: nobody waits for it any more (its offers are holds, which the app ends).
CREATE OR REPLACE FUNCTION eventry_end_waitlist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE waitlist_entries SET status = 'cancelled', updated_at = now() WHERE event_id = NEW.id AND status = 'waiting';
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER eventry_end_waitlist AFTER UPDATE OF cancelled_at, is_deleted ON events
  FOR EACH ROW WHEN ((NEW.cancelled_at IS NOT NULL AND OLD.cancelled_at IS NULL) OR (NEW.is_deleted AND NOT OLD.is_deleted))
  EXECUTE FUNCTION eventry_end_waitlist();

-- An offer's booking moved: its entry follows. Paid: bought (a late payment of an offer that ran out too). Ended:
-- declined (the user said no, or let the hold go), cancelled (the event was), or expired (ran out, or its payment
-- was canceled). Replaced by the user's own newer hold: nothing, as the newer hold carries the entry on.
CREATE OR REPLACE FUNCTION eventry_follow_offer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'cancelled' AND NEW.ended_reason = 'replaced' THEN
    RETURN NULL;
  END IF;
  UPDATE waitlist_entries
     SET status = CASE WHEN NEW.status = 'paid' THEN 'bought'
                       WHEN NEW.ended_reason IN ('offer_declined', 'cancelled_by_buyer') THEN 'declined'
                       WHEN NEW.ended_reason IN ('event_cancelled', 'event_deleted') THEN 'cancelled'
                       ELSE 'expired' END,
         updated_at = now()
   WHERE id = NEW.waitlist_entry_id AND (status = 'offered' OR (NEW.status = 'paid' AND status <> 'bought'));
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER eventry_follow_offer AFTER UPDATE OF status ON bookings
  FOR EACH ROW WHEN (NEW.waitlist_entry_id IS NOT NULL AND OLD.status <> NEW.status)
  EXECUTE FUNCTION eventry_follow_offer();
