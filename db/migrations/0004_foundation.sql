ALTER TABLE "brands" ADD COLUMN "logo_key" text;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "font" text DEFAULT 'sans' NOT NULL;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "music_key" text;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "tts_voice" text;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "requires_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "video_jobs" ADD COLUMN "captions" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "video_jobs" ADD COLUMN "captions_key" text;--> statement-breakpoint
ALTER TABLE "video_jobs" ADD COLUMN "warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;