import { lt, sql } from "drizzle-orm";
import { getDatabase, getDb, preparedPerDb } from "@/db/client";
import { rateLimitBuckets } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { getEnv } from "@/lib/config";
import { ApiError } from "@/lib/errors/api-error";

/** Requests per minute per credential, by kind of work. Generation is what costs money, so it is limited. */
const LIMITS = {
  generate: () => getEnv().RATE_LIMIT_GENERATE_PER_MINUTE,
  video: () => getEnv().RATE_LIMIT_VIDEO_PER_MINUTE,
  /** Media-plan image generations: each may be a paid image-model call. */
  image: () => getEnv().RATE_LIMIT_IMAGE_PER_MINUTE,
  /** Sign-ups per client IP: each costs a scrypt hash and creates an account. */
  signup: () => getEnv().RATE_LIMIT_SIGNUP_PER_MINUTE,
  /** Invitations sent or re-sent, per owner and per brand, an hour: each is an email to anyone. */
  invite_owner: () => getEnv().RATE_LIMIT_INVITE_PER_HOUR,
  invite_brand: () => getEnv().RATE_LIMIT_INVITE_PER_BRAND_PER_HOUR,
} as const;

export type RateLimitBucket = keyof typeof LIMITS;
/** Each bucket's fixed window: a minute, or an hour for invitations. */
const windowSecondsOf = (bucket: RateLimitBucket) => (bucket.startsWith("invite_") ? 3600 : 60);

/** Counts one request in its window: one upsert, prepared once per database. */
const countRequest = preparedPerDb((db) =>
  db
    .insert(rateLimitBuckets)
    .values({ key: sql.placeholder("key"), windowStart: sql.placeholder("windowStart"), count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitBuckets.key, rateLimitBuckets.windowStart],
      set: { count: sql`${rateLimitBuckets.count} + 1` },
    })
    .returning({ count: rateLimitBuckets.count })
    .prepare("rate_limit_count"),
);

/**
 * PGlite's data folder is locked to one process, so with PGlite that process sees every request and counts
 * its windows in memory, without a query (on PGlite each costs about as much as the rest of a request).
 */
const globalForLimits = globalThis as unknown as {
  brandStudioRateWindows?: Map<string, { windowStart: number; count: number }>;
};
const MEMORY_WINDOWS_MAX = 10_000;

function countInMemory(key: string, windowStart: number) {
  globalForLimits.brandStudioRateWindows ??= new Map();
  const memoryWindows = globalForLimits.brandStudioRateWindows;
  const window = memoryWindows.get(key);
  if (window?.windowStart === windowStart) return ++window.count;
  if (memoryWindows.size >= MEMORY_WINDOWS_MAX) {
    for (const [other, { windowStart: start }] of memoryWindows)
      if (start < windowStart) memoryWindows.delete(other);
  }
  memoryWindows.set(key, { windowStart, count: 1 });
  return 1;
}

async function countInDatabase(key: string, windowStart: Date, now: number) {
  const db = await getDb();
  const [{ count }] = await countRequest(db).execute({ key, windowStart });
  // Old windows are useless; sweep them now and then rather than on every request.
  if (Math.random() < 0.01) {
    // An hour's window (invitations) starts less than an hour ago, so it is never swept while it counts.
    await db.delete(rateLimitBuckets).where(lt(rateLimitBuckets.windowStart, new Date(now - 3600_000)));
  }
  return count;
}

/**
 * Counts one request in a fixed one-minute window kept in the database, so every web process shares it
 * (in memory on PGlite, which is one process).
 * Throws rate_limited past the limit; otherwise returns the X-RateLimit-* headers for the response.
 */
export async function enforceRateLimit({
  bucket,
  subject,
}: {
  bucket: RateLimitBucket;
  subject: string;
}): Promise<Record<string, string>> {
  const limit = LIMITS[bucket]();
  const windowSeconds = windowSecondsOf(bucket);
  const now = Date.now();
  const windowStart = new Date(Math.floor(now / (windowSeconds * 1000)) * windowSeconds * 1000);
  const resetSeconds = Math.ceil((windowStart.getTime() + windowSeconds * 1000 - now) / 1000);
  const key = `${bucket}:${subject}`;
  const count =
    (await getDatabase()).kind === "pglite"
      ? countInMemory(key, windowStart.getTime())
      : await countInDatabase(key, windowStart, now);
  const headers = {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(Math.max(0, limit - count)),
    "X-RateLimit-Reset": String(Math.ceil(windowStart.getTime() / 1000) + windowSeconds),
  };
  if (count > limit) {
    throw new ApiError(
      "rate_limited",
      `Too many requests: at most ${limit} ${windowSeconds === 60 ? "a minute" : "an hour"}. Try again in ${resetSeconds} s.`,
      {
        headers: { ...headers, "Retry-After": String(resetSeconds) },
      },
    );
  }
  return headers;
}

/** The subject a principal's requests are counted under: the API key, or the user for access tokens. */
export const rateLimitSubject = (principal: Principal) => principal.apiKeyId ?? principal.userId;
