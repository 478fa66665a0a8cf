ALTER TABLE "channel_connections" ADD COLUMN "connected_by" text;--> statement-breakpoint
ALTER TABLE "channel_connections" ADD CONSTRAINT "channel_connections_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Until now only the creator was recorded: the best knowledge of whose consent the tokens carry.
UPDATE "channel_connections" SET "connected_by" = "created_by";
