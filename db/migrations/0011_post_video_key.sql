-- A post whose video is one of its brand's rendered videos keeps the video's media key, and the API signs a
-- fresh URL on every read (lib/posts/post-video.ts). Before, it kept the signed URL the client sent, which
-- stopped working after MEDIA_URL_TTL_SECONDS. Such rows get their key here: the local store's
-- `/media/<key>?exp=…&sig=…` (relative or absolute) and S3's `…/<key>?X-Amz-…` both end their path with it.
-- Jobs written before media URLs were signed hold `/media/<key>`. Any other URL stays as it was sent.
UPDATE "posts" AS p
SET "video_url" = j."key"
FROM (
  SELECT "brand_id", regexp_replace("video_url", '^/media/', '') AS "key"
  FROM "video_jobs"
  WHERE "status" = 'succeeded' AND "video_url" IS NOT NULL
) AS j
WHERE j."brand_id" = p."brand_id"
  AND p."video_url" IS NOT NULL
  AND p."video_url" <> j."key"
  AND right(split_part(p."video_url", '?', 1), length(j."key") + 1) = '/' || j."key";
