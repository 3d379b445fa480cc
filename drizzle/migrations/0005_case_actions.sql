CREATE TABLE "audit_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"actor_ref" text NOT NULL,
	"event" text NOT NULL,
	"application_id" integer,
	"reference" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "case_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"form_key" text NOT NULL,
	"reference" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"answers" jsonb NOT NULL,
	"status_before" text NOT NULL,
	"status_after" text NOT NULL,
	"actor" text NOT NULL,
	"language" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "case_actions_reference_uq" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "case_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"history_id" integer,
	"kind" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"bytes" integer,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"download_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "application_history" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_actions" ADD CONSTRAINT "case_actions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_documents" ADD CONSTRAINT "case_documents_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_documents" ADD CONSTRAINT "case_documents_history_id_application_history_id_fk" FOREIGN KEY ("history_id") REFERENCES "public"."application_history"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_application_idx" ON "audit_events" USING btree ("application_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "case_actions_application_key_uq" ON "case_actions" USING btree ("application_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "case_actions_application_idx" ON "case_actions" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "case_documents_application_idx" ON "case_documents" USING btree ("application_id");