-- Every change to an event (admin edits, soft deletes, availability moved by bookings) is announced on
-- the 'eventry_events' channel so that every app process can push it to its live-update clients.
CREATE OR REPLACE FUNCTION eventry_notify_event_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify(
    'eventry_events',
    json_build_object(
      'op', lower(TG_OP),
      'id', COALESCE(NEW.id, OLD.id),
      'ticketsAvailable', COALESCE(NEW.tickets_available, OLD.tickets_available),
      'isDeleted', COALESCE(NEW.is_deleted, OLD.is_deleted),
      'version', COALESCE(NEW.version, OLD.version)
    )::text
  );
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_notify_change
AFTER INSERT OR UPDATE OR DELETE ON events
FOR EACH ROW EXECUTE FUNCTION eventry_notify_event_change();
