-- Created eventry_reserve_tickets, the reservation batch in one statement. Its definition now lives in one
-- place, repeatable/eventry_reserve_tickets.sql, applied after the migrations on every start (decision 009).
SELECT 1;
