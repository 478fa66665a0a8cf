-- Before this migration the same email could be invited to a brand twice. Keep the open (not accepted, not
-- revoked) invitation per brand and email, compared case-insensitively, whose link was issued last, and revoke
-- the others, so the unique index can be built on a database that has such duplicates.
UPDATE "brand_invitations" AS "b" SET "revoked_at" = now()
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY "brand_id", lower("email") ORDER BY "expires_at" DESC, "created_at" DESC, "id" DESC
  ) AS "n"
  FROM "brand_invitations"
  WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL
) AS "d"
WHERE "b"."id" = "d"."id" AND "d"."n" > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "brand_invitations_open_email_idx" ON "brand_invitations" USING btree ("brand_id",lower("email")) WHERE "brand_invitations"."accepted_at" is null and "brand_invitations"."revoked_at" is null;
