-- eventry_reserve_tickets: the live definition, the only one. Every start applies this file after the
-- migrations (server/db/migrate.ts), so changing the function is an edit here; a new signature needs a
-- migration that drops the old function first. It makes two of the booking transitions of
-- ../state-machine.ts: reserve, and replace (state-machine.test.ts checks the SET below is the table's).
--
-- Reservations for one event, a whole batch in one statement. The events row is the hot spot of an
-- on-sale event: every reservation passes through it. Run from the app as several statements, the row
-- stayed locked while the app went round the network between them (and waited for its own busy event
-- loop); here it is locked only while PostgreSQL itself allocates, writes and commits.
--
-- The items are distinct buyers (p_users has no duplicates), in arrival order. For each item the result
-- says 'existing' (its Idempotency-Key already made a booking), 'created' or 'refused' (with the tickets
-- left for that buyer). A buyer's new reservation replaces their pending one, whose tickets count towards
-- it; a refused request leaves the old hold alone. The row lock, the conditional UPDATE and the CHECK on
-- events keep available + held + sold = capacity whatever the callers do.
--
-- The holds are locked and read by one statement (it was two: a lock, then a join that the planner ran
-- as a scan of the event's pending holds once per buyer), and each Idempotency-Key is one probe of its
-- unique index (it was a join the planner could turn into a hash of the whole table). The function never
-- scans a table (enable_seqscan): its plans are cached per connection, and a plan made while bookings
-- was nearly empty kept scanning the whole table (the key lookup and the cancelling UPDATE) long after
-- an on-sale had filled it, until the next ANALYZE.
CREATE OR REPLACE FUNCTION eventry_reserve_tickets(
  p_event uuid,
  p_users text[],
  p_quantities int[],
  p_keys text[],
  p_hold_minutes int,
  p_provider text,
  p_today date
) RETURNS jsonb
LANGUAGE plpgsql
SET enable_seqscan = off
AS $$
DECLARE
  ev record;
  n int := cardinality(p_users);
  known uuid[];
  prev_ids uuid[];
  prev_qty int[];
  prev_intents text[];
  prev_expires timestamptz[];
  prev_entries uuid[];
  avail int;
  own int;
  found_id uuid;
  kinds text[] := array_fill(NULL::text, ARRAY[n]);
  booking_ids uuid[] := array_fill(NULL::uuid, ARRAY[n]);
  left_for int[] := array_fill(NULL::int, ARRAY[n]);
  expires timestamptz[] := array_fill(NULL::timestamptz, ARRAY[n]);
  taking int[] := '{}';
  cancel_ids uuid[] := '{}';
  released text[] := '{}';
  r record;
  i int;
BEGIN
  SELECT e.id, e.title, e.image_url, e.event_date, e.start_time, e.end_time, e.end_date, e.price_piasters,
         e.tickets_available, e.is_deleted, e.cancelled_at
    INTO ev FROM events e WHERE e.id = p_event FOR UPDATE;
  IF NOT FOUND OR ev.is_deleted THEN
    RETURN jsonb_build_object('status', 'not-found');
  END IF;
  -- A cancelled event sells nothing more (contracts/refunds.ts).
  IF ev.end_date < p_today OR ev.cancelled_at IS NOT NULL THEN
    RETURN jsonb_build_object('status', 'closed');
  END IF;

  -- Replays of an Idempotency-Key answer with the booking it created.
  SELECT array_agg((SELECT b.id FROM bookings b WHERE b.user_id = k.user_id AND b.idempotency_key = k.key)
                   ORDER BY k.n) INTO known
    FROM unnest(p_users, p_keys) WITH ORDINALITY AS k(user_id, key, n);

  -- The buyers' pending holds on this event (at most one each), locked. FOR UPDATE answers with the
  -- newest version of each row and drops a row that stopped being pending while it waited for the lock.
  -- A hold that has not run out passes its end on to the hold that replaces it: choosing again does not
  -- restart the clock, so nobody keeps tickets from other buyers by reserving again every few minutes.
  WITH held AS (
    SELECT b.user_id, b.id, b.quantity, b.payment_provider, b.payment_intent_id, b.payment_method, b.expires_at,
           b.waitlist_entry_id
      FROM bookings b
     WHERE b.user_id = ANY (p_users) AND b.event_id = p_event AND b.status = 'pending'
       FOR UPDATE
  )
  SELECT array_agg(h.id ORDER BY k.n), array_agg(COALESCE(h.quantity, 0) ORDER BY k.n),
         -- 'provider:reference', so that the caller cancels each payment with the provider that started it.
         array_agg(h.payment_provider || ':' || h.payment_intent_id ORDER BY k.n),
         -- A kiosk-cash hold lasts PAYMOB_CASH_HOURS for its bill to be paid; the hold replacing it gets a new one.
         array_agg(CASE WHEN h.expires_at > now() AND h.payment_method IS DISTINCT FROM 'cash' THEN h.expires_at END
                   ORDER BY k.n),
         -- A waitlist offer replaced by the user's own reservation: the newer hold is the offer now.
         array_agg(h.waitlist_entry_id ORDER BY k.n)
    INTO prev_ids, prev_qty, prev_intents, prev_expires, prev_entries
    FROM unnest(p_users) WITH ORDINALITY AS k(user_id, n)
    LEFT JOIN held h ON h.user_id = k.user_id;

  -- Allocate in arrival order.
  avail := ev.tickets_available;
  FOR i IN 1..n LOOP
    IF known[i] IS NOT NULL THEN
      kinds[i] := 'existing';
      booking_ids[i] := known[i];
    ELSE
      own := prev_qty[i];
      IF p_quantities[i] <= avail + own THEN
        avail := avail + own - p_quantities[i];
        taking := taking || i;
        IF prev_ids[i] IS NOT NULL THEN
          cancel_ids := cancel_ids || prev_ids[i];
          IF prev_intents[i] IS NOT NULL THEN
            released := released || prev_intents[i];
          END IF;
        END IF;
      ELSE
        kinds[i] := 'refused';
        left_for[i] := avail + own;
      END IF;
    END IF;
  END LOOP;

  IF cardinality(cancel_ids) > 0 THEN
    UPDATE bookings SET status = 'cancelled', ended_reason = 'replaced', updated_at = now() WHERE id = ANY (cancel_ids);
  END IF;

  IF cardinality(taking) > 0 THEN
    FOR r IN
      INSERT INTO bookings (user_id, event_id, quantity, unit_price_piasters, total_piasters, expires_at,
                            idempotency_key, payment_provider, waitlist_entry_id, replaces_hold)
      SELECT p_users[t.i], p_event, p_quantities[t.i], ev.price_piasters, p_quantities[t.i] * ev.price_piasters,
             COALESCE(prev_expires[t.i], now() + make_interval(mins => p_hold_minutes)), p_keys[t.i], p_provider,
             prev_entries[t.i], prev_ids[t.i] IS NOT NULL
        FROM unnest(taking) WITH ORDINALITY AS t(i, n)
       ORDER BY t.n
      ON CONFLICT DO NOTHING
      RETURNING id, user_id, expires_at
    LOOP
      i := array_position(p_users, r.user_id);
      kinds[i] := 'created';
      booking_ids[i] := r.id;
      expires[i] := r.expires_at;
    END LOOP;
    -- A skipped row: the same Idempotency-Key was used at the same moment for another event, and that
    -- booking won. Its tickets go back and the buyer is answered with the winning booking.
    FOREACH i IN ARRAY taking LOOP
      IF kinds[i] IS NULL THEN
        SELECT b.id INTO found_id FROM bookings b WHERE b.user_id = p_users[i] AND b.idempotency_key = p_keys[i];
        IF found_id IS NULL THEN
          RAISE EXCEPTION 'a booking insert was skipped without an idempotency conflict';
        END IF;
        avail := avail + p_quantities[i];
        kinds[i] := 'existing';
        booking_ids[i] := found_id;
      END IF;
    END LOOP;
  END IF;

  IF avail <> ev.tickets_available THEN
    -- Tickets a smaller hold gave back go to the event's waitlist first (eventry_waitlist.sql): what is left
    -- to sell is what the row says afterwards.
    UPDATE events SET tickets_available = tickets_available + (avail - ev.tickets_available), version = version + 1
     WHERE id = p_event AND tickets_available + (avail - ev.tickets_available) >= 0
    RETURNING tickets_available INTO avail;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'tickets of event % would go below zero', p_event;
    END IF;
  END IF;

  RETURN jsonb_build_object(
    'status', 'ok',
    'event', jsonb_build_object(
      'id', ev.id, 'title', ev.title, 'imageUrl', ev.image_url, 'eventDate', ev.event_date,
      'startTime', ev.start_time, 'endTime', ev.end_time, 'endDate', ev.end_date,
      'pricePiasters', ev.price_piasters, 'ticketsAvailable', avail, 'isDeleted', ev.is_deleted),
    'kinds', to_jsonb(kinds),
    'bookingIds', to_jsonb(booking_ids),
    'available', to_jsonb(left_for),
    'expiresAt', to_jsonb(expires),
    'released', to_jsonb(released));
END;
$$;
