CREATE TABLE "channel_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"channel" text NOT NULL,
	"external_id" text NOT NULL,
	"account_name" text NOT NULL,
	"account_handle" text,
	"avatar_url" text,
	"credentials" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"status_message" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"id" text PRIMARY KEY NOT NULL,
	"brand_id" text NOT NULL,
	"post_id" text NOT NULL,
	"channel_id" text,
	"channel" text NOT NULL,
	"created_by" text,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"publish_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claim_token" text,
	"lease_until" timestamp with time zone,
	"call_started_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"external_id" text,
	"permalink" text,
	"error_code" text,
	"error_message" text,
	"error_retryable" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_connections" ADD CONSTRAINT "channel_connections_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_connections" ADD CONSTRAINT "channel_connections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_channel_id_channel_connections_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channel_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_connections_brand_idx" ON "channel_connections" USING btree ("brand_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_connections_target_idx" ON "channel_connections" USING btree ("brand_id","channel","external_id");--> statement-breakpoint
CREATE INDEX "publications_brand_publish_at_idx" ON "publications" USING btree ("brand_id","publish_at");--> statement-breakpoint
CREATE INDEX "publications_post_idx" ON "publications" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "publications_status_idx" ON "publications" USING btree ("status","lease_until");