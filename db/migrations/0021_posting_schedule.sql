CREATE TABLE "channel_schedule_slots" (
	"channel_id" text NOT NULL,
	"weekday" integer NOT NULL,
	"minute" integer NOT NULL,
	CONSTRAINT "channel_schedule_slots_channel_id_weekday_minute_pk" PRIMARY KEY("channel_id","weekday","minute")
);
--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "slot_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channel_schedule_slots" ADD CONSTRAINT "channel_schedule_slots_channel_id_channel_connections_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channel_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publications_channel_slot_idx" ON "publications" USING btree ("channel_id","slot_at") WHERE "publications"."slot_at" IS NOT NULL AND "publications"."status" IN ('scheduled', 'held');