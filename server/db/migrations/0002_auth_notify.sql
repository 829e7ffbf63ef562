-- Every change to a session (sign-out, refresh, revocation) or to an account (role, profile, verification,
-- deletion) is announced on the 'eventry_auth' channel with the user's id, so that every app process drops
-- what it keeps in memory of that user's sessions (server/plugins/session-cache.ts).
CREATE OR REPLACE FUNCTION eventry_notify_auth_change() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('eventry_auth', COALESCE(OLD.user_id, NEW.user_id));
  ELSE
    PERFORM pg_notify('eventry_auth', COALESCE(OLD.id, NEW.id));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_auth_change
AFTER UPDATE OR DELETE ON sessions
FOR EACH ROW EXECUTE FUNCTION eventry_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER users_notify_auth_change
AFTER UPDATE OR DELETE ON users
FOR EACH ROW EXECUTE FUNCTION eventry_notify_auth_change();
