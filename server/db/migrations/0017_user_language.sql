-- The language a user chose (contracts/i18n/languages.ts): their emails are written in it, and signing in sets the
-- site's. Null for the accounts made before languages, until their owner chooses one.
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_known" CHECK ("users"."language" IN ('en', 'ar'));