CREATE TABLE "case_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"document_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"original_name" text NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"action_id" integer
);
--> statement-breakpoint
ALTER TABLE "case_uploads" ADD CONSTRAINT "case_uploads_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_uploads" ADD CONSTRAINT "case_uploads_action_id_case_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."case_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_uploads_application_idx" ON "case_uploads" USING btree ("application_id");