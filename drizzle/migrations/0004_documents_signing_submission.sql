CREATE TABLE "draft_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"draft_id" integer NOT NULL,
	"document_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"original_name" text NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "draft_documents_storage_key_uq" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "signing_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"draft_id" integer NOT NULL,
	"method" text NOT NULL,
	"request_id" text NOT NULL,
	"external_id" text,
	"identification_code" text,
	"digest" text NOT NULL,
	"answers_sha256" text NOT NULL,
	"pdf_storage_key" text NOT NULL,
	"pdf_sha256" text NOT NULL,
	"documents" jsonb NOT NULL,
	"status" text NOT NULL,
	"code" text,
	"signer" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "signing_requests_request_id_uq" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"draft_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"signing_request_id" integer NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"download_until" timestamp with time zone NOT NULL,
	CONSTRAINT "submissions_draft_uq" UNIQUE("draft_id")
);
--> statement-breakpoint
ALTER TABLE "draft_documents" ADD CONSTRAINT "draft_documents_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_signing_request_id_signing_requests_id_fk" FOREIGN KEY ("signing_request_id") REFERENCES "public"."signing_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "draft_documents_draft_type_uq" ON "draft_documents" USING btree ("draft_id","document_type");--> statement-breakpoint
CREATE INDEX "signing_requests_draft_idx" ON "signing_requests" USING btree ("draft_id");