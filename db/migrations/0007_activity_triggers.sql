-- Activity entries written by the database, in the statement that makes the change: a post's creation (the
-- one prepared insert of Generate post stays a single round trip) and a publication reaching `published`
-- (whichever worker process saves the platform's answer). Times are cut to milliseconds, like the entries the
-- app writes, so list cursors compare exactly.
CREATE FUNCTION "activity_post_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "activity_log" ("id", "brand_id", "actor_id", "actor_email", "action", "subject_type", "subject_id", "details", "created_at")
  VALUES (
    'act_' || replace(gen_random_uuid()::text, '-', ''), NEW."brand_id", NEW."created_by",
    (SELECT "email" FROM "users" WHERE "id" = NEW."created_by"), 'post.created', 'post', NEW."id",
    jsonb_build_object('channel', NEW."channel"), date_trunc('milliseconds', NEW."created_at")
  );
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "posts_created" AFTER INSERT ON "posts"
  FOR EACH ROW EXECUTE FUNCTION "activity_post_created"();--> statement-breakpoint
CREATE FUNCTION "activity_post_published"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "activity_log" ("id", "brand_id", "actor_id", "actor_email", "action", "subject_type", "subject_id", "details", "created_at")
  VALUES (
    'act_' || replace(gen_random_uuid()::text, '-', ''), NEW."brand_id", NEW."created_by",
    (SELECT "email" FROM "users" WHERE "id" = NEW."created_by"), 'post.published', 'post', NEW."post_id",
    jsonb_strip_nulls(jsonb_build_object('channel', NEW."channel", 'publicationId', NEW."id", 'permalink', NEW."permalink")),
    date_trunc('milliseconds', clock_timestamp())
  );
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "publications_published" AFTER UPDATE OF "status" ON "publications"
  FOR EACH ROW WHEN (NEW."status" = 'published' AND OLD."status" IS DISTINCT FROM 'published')
  EXECUTE FUNCTION "activity_post_published"();
