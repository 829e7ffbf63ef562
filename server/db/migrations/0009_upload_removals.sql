-- An upload being removed: set, in a short transaction, once nothing shows the file; the file is removed after
-- that commit, then the row. A save can no longer take a marked upload (server/plugins/uploads.ts). Each
-- attempt moves it to its time, so removals that keep failing queue behind the others.
ALTER TABLE "uploads" ADD COLUMN "removal_tried_at" timestamp with time zone;
