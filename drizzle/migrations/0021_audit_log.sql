-- The append-only, hash-chained audit log (docs/decisions/033-audit-log.md).
-- Roles are cluster-wide on Postgres and test databases are made in parallel: each CREATE ROLE is
-- idempotent and takes a concurrent creation (duplicate_object, unique_violation) as done.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bd_audit_owner') THEN
    BEGIN
      CREATE ROLE bd_audit_owner NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'bd_app') THEN
    BEGIN
      CREATE ROLE bd_app NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
END $$;
--> statement-breakpoint
-- The migrating user may become the application's role (drizzle/db.ts sets it on every connection).
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'bd_app', 'MEMBER') THEN
    EXECUTE format('GRANT bd_app TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
-- The record outlives the case row it names: no foreign key, so that nothing ever rewrites a row.
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_application_id_applications_id_fk";
--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_events_no_update ON audit_events;
--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_events_no_delete ON audit_events;
--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_events_no_truncate ON audit_events;
--> statement-breakpoint
DROP FUNCTION IF EXISTS audit_events_append_only();
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
-- A field of the canonical content: '-' for null, else its length in bytes, ':' and the text.
CREATE FUNCTION audit_field(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '-' ELSE octet_length(value)::text || ':' || value END
$$;
--> statement-breakpoint
-- sha256 (hex) over the previous row's hash and this row's canonical content; scripts/audit-verify.ts
-- computes the same in TypeScript.
CREATE FUNCTION audit_row_hash(
  prev text, id integer, at timestamptz, actor text, actor_ref text, event text, application_id integer,
  reference text, before jsonb, after jsonb, address text, request_id text
) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    coalesce(prev, '') || 'v1|' || audit_field(id::text)
    || audit_field((extract(epoch FROM at) * 1000000)::bigint::text)
    || audit_field(actor) || audit_field(actor_ref) || audit_field(event)
    || audit_field(application_id::text) || audit_field(reference)
    || audit_field(before::text) || audit_field(after::text)
    || audit_field(address) || audit_field(request_id),
    'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- The rows already there start the chain, in the order of their ids.
DO $$
DECLARE
  r audit_events;
  prev text := NULL;
BEGIN
  FOR r IN SELECT * FROM audit_events ORDER BY id LOOP
    UPDATE audit_events SET prev_hash = prev,
      hash = audit_row_hash(prev, r.id, r.at, r.actor, r.actor_ref, r.event, r.application_id,
                            r.reference, r.before, r.after, r.address, r.request_id)
      WHERE id = r.id
      RETURNING hash INTO prev;
  END LOOP;
END $$;
--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "hash" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX "audit_events_event_idx" ON "audit_events" USING btree ("event", "at");
--> statement-breakpoint
-- The one way in: under a transaction-scoped advisory lock, so that parallel requests append one after
-- another to one chain (the lock is held until the caller's transaction ends).
CREATE FUNCTION audit_append(
  p_at timestamptz, p_actor text, p_actor_ref text, p_event text, p_application_id integer,
  p_reference text, p_before jsonb, p_after jsonb, p_address text, p_request_id text
) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_prev text;
  v_id integer;
BEGIN
  -- A snapshot older than the lock could miss the last row and fork the chain.
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'audit_append needs READ COMMITTED' USING ERRCODE = 'feature_not_supported';
  END IF;
  PERFORM pg_advisory_xact_lock(7310013019);
  SELECT hash INTO v_prev FROM public.audit_events ORDER BY id DESC LIMIT 1;
  v_id := nextval(pg_get_serial_sequence('public.audit_events', 'id'));
  INSERT INTO public.audit_events
    (id, at, actor, actor_ref, event, application_id, reference, before, after, address, request_id,
     prev_hash, hash)
  VALUES
    (v_id, p_at, p_actor, p_actor_ref, p_event, p_application_id, p_reference, p_before, p_after,
     p_address, p_request_id, v_prev,
     public.audit_row_hash(v_prev, v_id, p_at, p_actor, p_actor_ref, p_event, p_application_id,
                           p_reference, p_before, p_after, p_address, p_request_id));
  RETURN v_id;
END $$;
--> statement-breakpoint
-- Whoever asks, even the owner: a row is never changed or removed.
CREATE FUNCTION audit_events_refuse() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse();
--> statement-breakpoint
-- The owner is a role nobody logs in as: only its owner (or a superuser) may disable or drop a trigger.
ALTER TABLE audit_events OWNER TO bd_audit_owner;
--> statement-breakpoint
ALTER FUNCTION audit_field(text) OWNER TO bd_audit_owner;
--> statement-breakpoint
ALTER FUNCTION audit_row_hash(text, integer, timestamptz, text, text, text, integer, text, jsonb, jsonb, text, text) OWNER TO bd_audit_owner;
--> statement-breakpoint
ALTER FUNCTION audit_append(timestamptz, text, text, text, integer, text, jsonb, jsonb, text, text) OWNER TO bd_audit_owner;
--> statement-breakpoint
ALTER FUNCTION audit_events_refuse() OWNER TO bd_audit_owner;
--> statement-breakpoint
-- The application's role: everything on the portal's own tables, on the audit log only SELECT and the
-- function. CREATE on the schema and the database: the iAM Smart sandbox's tables and, on PGlite,
-- pg-boss's schema are made at run time.
GRANT USAGE, CREATE ON SCHEMA public TO bd_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES ON ALL TABLES IN SCHEMA public TO bd_app;
--> statement-breakpoint
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO bd_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES ON TABLES TO bd_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO bd_app;
--> statement-breakpoint
REVOKE ALL ON audit_events FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON audit_events FROM bd_app;
--> statement-breakpoint
GRANT SELECT ON audit_events TO bd_app;
--> statement-breakpoint
REVOKE ALL ON SEQUENCE audit_events_id_seq FROM bd_app;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_append(timestamptz, text, text, text, integer, text, jsonb, jsonb, text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION audit_append(timestamptz, text, text, text, integer, text, jsonb, jsonb, text, text) TO bd_app;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT CREATE ON DATABASE %I TO bd_app', current_database());
  IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss') THEN
    GRANT USAGE, CREATE ON SCHEMA pgboss TO bd_app;
    GRANT ALL ON ALL TABLES IN SCHEMA pgboss TO bd_app;
    GRANT ALL ON ALL SEQUENCES IN SCHEMA pgboss TO bd_app;
  END IF;
END $$;
--> statement-breakpoint
-- A server that logs in as a member of bd_app only (docs/operations.md, "The audit log") still runs
-- drizzle's migrate at start: it reads the journal and finds nothing to do.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'drizzle') THEN
    GRANT USAGE, CREATE ON SCHEMA drizzle TO bd_app;
    GRANT SELECT ON ALL TABLES IN SCHEMA drizzle TO bd_app;
  END IF;
END $$;
