CREATE SEQUENCE "public"."application_no_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1;--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"geo_address" text NOT NULL,
	"building_name_en" text,
	"building_name_zh" text,
	"estate_name_en" text,
	"estate_name_zh" text,
	"block_en" text,
	"block_zh" text,
	"street_name_en" text,
	"street_name_zh" text,
	"building_no_from" text,
	"building_no_to" text,
	"location_en" text,
	"location_zh" text,
	"district_en" text NOT NULL,
	"district_zh" text NOT NULL,
	"region" text NOT NULL,
	"lot_no" text,
	"dd_no" text,
	"latitude" double precision,
	"longitude" double precision,
	"search_text" text NOT NULL,
	CONSTRAINT "addresses_geo_address_uq" UNIQUE("geo_address")
);
--> statement-breakpoint
CREATE TABLE "draft_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"draft_id" integer NOT NULL,
	"issued_for" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "draft_tokens_token_hash_uq" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "drafts" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_no" text NOT NULL,
	"form_key" text NOT NULL,
	"form_code" text NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"step" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"language" text DEFAULT 'tc' NOT NULL,
	"contact_email" text,
	"contact_mobile" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "drafts_application_no_uq" UNIQUE("application_no")
);
--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "draft_id" integer;--> statement-breakpoint
ALTER TABLE "draft_tokens" ADD CONSTRAINT "draft_tokens_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "draft_tokens_draft_idx" ON "draft_tokens" USING btree ("draft_id");--> statement-breakpoint
CREATE INDEX "drafts_valid_until_idx" ON "drafts" USING btree ("valid_until");--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD CONSTRAINT "otp_challenges_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "otp_challenges_draft_idx" ON "otp_challenges" USING btree ("draft_id");