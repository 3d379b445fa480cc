CREATE TABLE "case_signings" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"session_id" integer,
	"follow_up" text NOT NULL,
	"method" text NOT NULL,
	"request_id" text NOT NULL,
	"external_id" text,
	"identification_code" text,
	"digest" text NOT NULL,
	"manifest" text NOT NULL,
	"status" text NOT NULL,
	"code" text,
	"signer" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"action_id" integer,
	CONSTRAINT "case_signings_request_uq" UNIQUE("request_id")
);
--> statement-breakpoint
ALTER TABLE "case_signings" ADD CONSTRAINT "case_signings_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_signings" ADD CONSTRAINT "case_signings_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_signings" ADD CONSTRAINT "case_signings_action_id_case_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."case_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_signings_application_idx" ON "case_signings" USING btree ("application_id");