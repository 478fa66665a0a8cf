ALTER TABLE "channel_connections" ADD COLUMN "granted_scopes" text[];--> statement-breakpoint
-- Instagram channels connected since Brand Studio asks for insights (migration 0015 gave every earlier one a
-- notice to connect again) were granted all three permissions; the others stay unknown (null), which the
-- channels panel shows as "Reconnect to allow results".
UPDATE "channel_connections" SET "granted_scopes" = ARRAY['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_insights']
WHERE "channel" = 'instagram' AND "id" NOT IN (SELECT "channel_id" FROM "channel_metric_state" WHERE "notice" IS NOT NULL);
