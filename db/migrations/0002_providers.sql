ALTER TABLE "video_jobs" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "video_jobs" ADD COLUMN "provider_job_id" text;--> statement-breakpoint
ALTER TABLE "video_jobs" ADD COLUMN "provider_submitted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "video_jobs_provider_job_idx" ON "video_jobs" USING btree ("provider","provider_job_id");--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "avatar_provider" text;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "avatar_provider_ref" text;--> statement-breakpoint
CREATE TABLE "provider_circuits" (
	"provider" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"opened_until" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_user_idx" ON "webhook_endpoints" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE cascade,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");
