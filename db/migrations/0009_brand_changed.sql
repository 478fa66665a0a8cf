-- Per-process brand caches (lib/brands/brand-cache.ts) hear of every change to a brand, whoever makes it (a
-- web process, a worker, an operator in psql): NOTIFY is sent when the transaction commits.
CREATE FUNCTION "notify_brand_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('brand_changed', OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "brands_changed" AFTER UPDATE OR DELETE ON "brands"
  FOR EACH ROW EXECUTE FUNCTION "notify_brand_changed"();
