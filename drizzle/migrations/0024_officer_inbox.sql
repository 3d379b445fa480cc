CREATE TABLE "case_seen" (
	"staff_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "case_seen_staff_id_application_id_pk" PRIMARY KEY("staff_id","application_id")
);
--> statement-breakpoint
CREATE TABLE "officer_digests" (
	"id" serial PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL,
	"items" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "officer_inbox_state" (
	"staff_id" integer PRIMARY KEY NOT NULL,
	"notices_read_at" timestamp with time zone,
	"digest_through" timestamp with time zone,
	"digest_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_accounts" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "case_seen" ADD CONSTRAINT "case_seen_staff_id_staff_accounts_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_seen" ADD CONSTRAINT "case_seen_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "officer_digests" ADD CONSTRAINT "officer_digests_staff_id_staff_accounts_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "officer_inbox_state" ADD CONSTRAINT "officer_inbox_state_staff_id_staff_accounts_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "officer_digests_staff_idx" ON "officer_digests" USING btree ("staff_id");