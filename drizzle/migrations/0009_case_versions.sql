CREATE TABLE "case_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"version" integer NOT NULL,
	"answers" jsonb NOT NULL,
	"reference" text NOT NULL,
	"submitted_by" text NOT NULL,
	"action_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_versions" ADD CONSTRAINT "case_versions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_versions" ADD CONSTRAINT "case_versions_action_id_case_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."case_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "case_versions_application_version_uq" ON "case_versions" USING btree ("application_id","version");--> statement-breakpoint
CREATE INDEX "case_versions_application_idx" ON "case_versions" USING btree ("application_id");