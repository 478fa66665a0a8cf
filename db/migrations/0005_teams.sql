CREATE TABLE "activity_log" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brand_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "brand_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "posts" DROP CONSTRAINT "posts_created_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "video_jobs" DROP CONSTRAINT "video_jobs_created_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "posts" ALTER COLUMN "created_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "video_jobs" ALTER COLUMN "created_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "review_action" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "review_comment" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_invitations" ADD CONSTRAINT "brand_invitations_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_invitations" ADD CONSTRAINT "brand_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_invitations" ADD CONSTRAINT "brand_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_log_brand_created_idx" ON "activity_log" USING btree ("brand_id","created_at","id");--> statement-breakpoint
CREATE INDEX "brand_invitations_brand_idx" ON "brand_invitations" USING btree ("brand_id","created_at","id");--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_jobs" ADD CONSTRAINT "video_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Per-process caches (API keys, finished video jobs) hear of every change to who may do what, whoever makes
-- it (the app, or an operator in psql): NOTIFY is sent when the transaction commits.
CREATE FUNCTION "notify_membership_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('membership_changed', OLD.user_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "brand_members_changed" AFTER UPDATE OR DELETE ON "brand_members"
  FOR EACH ROW EXECUTE FUNCTION "notify_membership_changed"();--> statement-breakpoint
CREATE FUNCTION "notify_user_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('membership_changed', OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_deleted" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "notify_user_deleted"();--> statement-breakpoint
CREATE FUNCTION "notify_api_key_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_revoked', OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "api_keys_gone" AFTER DELETE OR UPDATE OF "revoked_at" ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "notify_api_key_gone"();
