-- The console's search (docs/decisions/034-console-search.md): one normalised text per case, searched with
-- ILIKE '%…%' through a trigram index. The text is made by the API (lower case, Simplified Chinese by
-- opencc-js), which SQL cannot do: the column starts NULL ("to be indexed") and the API fills it at start
-- and before every search. The triggers set it back to NULL whenever what it is made of changes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "search_text" text;--> statement-breakpoint
CREATE INDEX "applications_search_trgm" ON "applications" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "applications_search_pending" ON "applications" USING btree ("id") WHERE "applications"."search_text" is null;
--> statement-breakpoint
-- The case row's own parts (number, names, premises): changed, and the text not set with them.
CREATE OR REPLACE FUNCTION applications_search_stale() RETURNS trigger AS $$
BEGIN
  IF (NEW.application_no, NEW.applicant_name_en, NEW.applicant_name_zh, NEW.premises_address_en)
       IS DISTINCT FROM (OLD.application_no, OLD.applicant_name_en, OLD.applicant_name_zh, OLD.premises_address_en)
     AND NEW.search_text IS NOT DISTINCT FROM OLD.search_text THEN
    NEW.search_text := NULL;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER applications_search_stale BEFORE UPDATE ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_search_stale();
--> statement-breakpoint
-- A new version of the answers (an update), or a Letter of Requirements (its BD reference).
CREATE OR REPLACE FUNCTION case_search_stale() RETURNS trigger AS $$
BEGIN
  UPDATE applications SET search_text = NULL WHERE id = NEW.application_id AND search_text IS NOT NULL;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER case_versions_search_stale AFTER INSERT ON case_versions
  FOR EACH ROW EXECUTE FUNCTION case_search_stale();
--> statement-breakpoint
CREATE TRIGGER issued_documents_search_stale AFTER INSERT ON issued_documents
  FOR EACH ROW WHEN (NEW.event = 'lor.issue') EXECUTE FUNCTION case_search_stale();
