CREATE TABLE "message_deliveries" (
	"outbox_id" integer PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"message_id" text NOT NULL,
	"attempt" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "message_deliveries" ADD CONSTRAINT "message_deliveries_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE cascade ON UPDATE no action;