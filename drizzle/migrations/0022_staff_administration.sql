-- Staff administration (docs/decisions/036-staff-administration.md): a TOTP waiting for enrolment, and
-- the last sign-in the admin's staff list shows.
ALTER TABLE "staff_accounts" ADD COLUMN "totp_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_accounts" ADD COLUMN "last_sign_in_at" timestamp with time zone;
