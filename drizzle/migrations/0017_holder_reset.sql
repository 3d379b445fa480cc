DROP INDEX "registration_holders_number_uq";--> statement-breakpoint
ALTER TABLE "registration_holders" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registration_holders" ADD COLUMN "ended_by" integer;--> statement-breakpoint
ALTER TABLE "registration_holders" ADD COLUMN "end_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "registration_holders_number_uq" ON "registration_holders" USING btree ("registration_number","identity") WHERE ended_at IS NULL;