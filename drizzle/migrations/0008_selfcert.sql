CREATE TABLE "self_certifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"case_application_id" integer NOT NULL,
	"certifier_registration_no" text NOT NULL,
	"certifier_identity" text NOT NULL,
	"lor_reference" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "self_certifications_application_uq" UNIQUE("application_id")
);
--> statement-breakpoint
ALTER TABLE "self_certifications" ADD CONSTRAINT "self_certifications_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "self_certifications" ADD CONSTRAINT "self_certifications_case_application_id_applications_id_fk" FOREIGN KEY ("case_application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "self_certifications_case_idx" ON "self_certifications" USING btree ("case_application_id");