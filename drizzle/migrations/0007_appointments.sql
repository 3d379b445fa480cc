CREATE TABLE "appointee_sessions" (
	"session_id" integer PRIMARY KEY NOT NULL,
	"registration_number" text NOT NULL,
	"identity" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appointment_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"appointment_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	CONSTRAINT "appointment_invitations_token_uq" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "appointment_signings" (
	"id" serial PRIMARY KEY NOT NULL,
	"appointment_id" integer NOT NULL,
	"method" text NOT NULL,
	"request_id" text NOT NULL,
	"external_id" text,
	"identification_code" text,
	"digest" text NOT NULL,
	"status" text NOT NULL,
	"code" text,
	"signer" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "appointment_signings_request_uq" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"case_action_id" integer,
	"identity" text NOT NULL,
	"name_en" text NOT NULL,
	"name_zh" text,
	"registration_number" text NOT NULL,
	"email" text NOT NULL,
	"mobile" text NOT NULL,
	"expiry_date" text NOT NULL,
	"status" text NOT NULL,
	"language" text NOT NULL,
	"invited_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"signature" jsonb,
	"expiry_notice_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "appointee_sessions" ADD CONSTRAINT "appointee_sessions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_invitations" ADD CONSTRAINT "appointment_invitations_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_signings" ADD CONSTRAINT "appointment_signings_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_case_action_id_case_actions_id_fk" FOREIGN KEY ("case_action_id") REFERENCES "public"."case_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_signings_appointment_idx" ON "appointment_signings" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "appointments_application_idx" ON "appointments" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "appointments_registration_idx" ON "appointments" USING btree ("registration_number","status");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_one_active_uq" ON "appointments" USING btree ("application_id","identity") WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_one_invited_uq" ON "appointments" USING btree ("application_id","identity") WHERE status = 'INVITED';