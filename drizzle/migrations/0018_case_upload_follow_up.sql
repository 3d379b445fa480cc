ALTER TABLE "case_uploads" ADD COLUMN "for_type" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "case_uploads" ADD COLUMN "request_id" integer;