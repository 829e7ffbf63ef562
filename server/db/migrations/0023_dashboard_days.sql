-- The dashboard's sums of closed days (issue 37, decision 025): dashboard_days holds, per time zone, event, local
-- day and way of paying, what that day's orders add up to; dashboard_closed says where the closed days end. The
-- closing step and the triggers that keep closed days in step with the orders are
-- features/dashboard/sql/eventry_dashboard_days.sql. Nothing is closed yet: until the first close every figure is
-- read from the orders, as before.
CREATE TABLE "dashboard_closed" (
	"time_zone" text PRIMARY KEY NOT NULL,
	"closed_before" timestamp with time zone NOT NULL,
	"last_day" date NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_days" (
	"time_zone" text NOT NULL,
	"event_id" uuid NOT NULL,
	"day" date NOT NULL,
	"payment_provider" text,
	"payment_method" text,
	"sold" integer DEFAULT 0 NOT NULL,
	"sold_tickets" integer DEFAULT 0 NOT NULL,
	"gross_piasters" bigint DEFAULT 0 NOT NULL,
	"held_tickets" integer DEFAULT 0 NOT NULL,
	"reservations" integer DEFAULT 0 NOT NULL,
	"refunded_tickets" integer DEFAULT 0 NOT NULL,
	"refunded_piasters" bigint DEFAULT 0 NOT NULL,
	"checked_in" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dashboard_days_event_idx" ON "dashboard_days" USING btree ("time_zone","event_id","day");