CREATE TABLE "channel_follower_counts" (
	"channel_id" text NOT NULL,
	"brand_id" text NOT NULL,
	"day" date NOT NULL,
	"count" bigint NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	CONSTRAINT "channel_follower_counts_channel_id_day_pk" PRIMARY KEY("channel_id","day")
);
--> statement-breakpoint
CREATE TABLE "channel_metric_state" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"backoff_until" timestamp with time zone,
	"notice" text,
	"update_offset" bigint,
	"followers_pulled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publication_metric_latest" (
	"publication_id" text NOT NULL,
	"brand_id" text NOT NULL,
	"metric" text NOT NULL,
	"value" bigint NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	CONSTRAINT "publication_metric_latest_publication_id_metric_pk" PRIMARY KEY("publication_id","metric")
);
--> statement-breakpoint
CREATE TABLE "publication_metric_pulls" (
	"publication_id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"channel_id" text,
	"published_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone,
	"pulled_at" timestamp with time zone,
	"refresh_requested_at" timestamp with time zone,
	"missing" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error_code" text,
	"error_message" text,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publication_metrics" (
	"publication_id" text NOT NULL,
	"metric" text NOT NULL,
	"value" bigint NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	CONSTRAINT "publication_metrics_publication_id_metric_captured_at_pk" PRIMARY KEY("publication_id","metric","captured_at")
);
--> statement-breakpoint
ALTER TABLE "channel_follower_counts" ADD CONSTRAINT "channel_follower_counts_channel_id_channel_connections_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channel_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_follower_counts" ADD CONSTRAINT "channel_follower_counts_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_metric_state" ADD CONSTRAINT "channel_metric_state_channel_id_channel_connections_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channel_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_metric_latest" ADD CONSTRAINT "publication_metric_latest_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_metric_latest" ADD CONSTRAINT "publication_metric_latest_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_metric_pulls" ADD CONSTRAINT "publication_metric_pulls_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_metric_pulls" ADD CONSTRAINT "publication_metric_pulls_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_metric_pulls" ADD CONSTRAINT "publication_metric_pulls_channel_id_channel_connections_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channel_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_metrics" ADD CONSTRAINT "publication_metrics_publication_id_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_follower_counts_brand_idx" ON "channel_follower_counts" USING btree ("brand_id","day");--> statement-breakpoint
CREATE INDEX "publication_metric_latest_brand_idx" ON "publication_metric_latest" USING btree ("brand_id","metric");--> statement-breakpoint
CREATE INDEX "publication_metric_pulls_due_idx" ON "publication_metric_pulls" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "publication_metric_pulls_brand_idx" ON "publication_metric_pulls" USING btree ("brand_id","published_at");--> statement-breakpoint
CREATE INDEX "publications_brand_published_at_idx" ON "publications" USING btree ("brand_id","published_at");--> statement-breakpoint
-- Instagram channels connected before insights were asked for lack instagram_business_manage_insights:
-- their owners are asked, once, to connect them again.
INSERT INTO "channel_metric_state" ("channel_id", "notice")
SELECT "id", 'Connect this Instagram account again to allow Brand Studio to read post insights (instagram_business_manage_insights).'
FROM "channel_connections" WHERE "channel" = 'instagram';
