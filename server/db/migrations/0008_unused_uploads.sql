-- Pictures that may be shown nowhere: each upload until an event or a profile shows it, each picture an edit
-- replaced until its file is gone. The hourly unused-uploads job (server/plugins/uploads.ts) removes the files
-- that nothing shows once older than its grace period, and forgets the rows of the others.
CREATE TABLE "uploads" (
	"url" text PRIMARY KEY NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
