ALTER TABLE "video_jobs" ADD COLUMN "aspect_ratio" text DEFAULT '16:9' NOT NULL;
