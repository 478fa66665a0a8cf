ALTER TABLE "brands" ADD COLUMN "languages" jsonb DEFAULT '["en"]'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "brands" SET "languages" = jsonb_build_array("language");--> statement-breakpoint
ALTER TABLE "channel_connections" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
UPDATE "channel_connections" SET "language" = "brands"."language" FROM "brands" WHERE "brands"."id" = "channel_connections"."brand_id";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
UPDATE "posts" SET "language" = "brands"."language" FROM "brands" WHERE "brands"."id" = "posts"."brand_id";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "group_id" text;--> statement-breakpoint
UPDATE "posts" SET "group_id" = "id";--> statement-breakpoint
ALTER TABLE "posts" ALTER COLUMN "group_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "posts_group_idx" ON "posts" USING btree ("group_id");
