CREATE TABLE "registration_holders" (
	"id" serial PRIMARY KEY NOT NULL,
	"registration_number" text NOT NULL,
	"identity" text NOT NULL,
	"name_en" text NOT NULL,
	"name_zh" text,
	"email" text NOT NULL,
	"mobile" text NOT NULL,
	"signer" jsonb,
	"language" text NOT NULL,
	"established_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "holder_id" integer;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "registered_contacts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "registration_holders_number_uq" ON "registration_holders" USING btree ("registration_number","identity");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_holder_id_registration_holders_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."registration_holders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Appointments accepted before holders existed (docs/decisions/025-registration-holders.md): the earliest
-- acceptance of each number establishes its holder, and the ACTIVE appointments accepted with the holder's
-- contacts are the holder's.
INSERT INTO "registration_holders" ("registration_number", "identity", "name_en", "name_zh", "email", "mobile", "signer", "language", "established_at", "updated_at")
SELECT DISTINCT ON (a."registration_number", a."identity")
  a."registration_number", a."identity", a."name_en", a."name_zh", a."email", a."mobile", a."signature" -> 'signer', a."language", a."accepted_at", a."accepted_at"
FROM "appointments" a
WHERE a."accepted_at" IS NOT NULL
ORDER BY a."registration_number", a."identity", a."accepted_at", a."id";--> statement-breakpoint
UPDATE "appointments" a SET "holder_id" = h."id"
FROM "registration_holders" h
WHERE a."status" = 'ACTIVE' AND a."registration_number" = h."registration_number" AND a."identity" = h."identity"
  AND a."email" = h."email" AND a."mobile" = h."mobile";
