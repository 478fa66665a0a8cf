import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import {
  AVATAR_STATUSES,
  type AvatarStatus,
  BRAND_ROLES,
  VIDEO_JOB_STATUSES,
  type VideoJobStatus,
} from "@/lib/contracts/enums";

// Re-exported for the server code that reads them from here; the browser imports lib/contracts/enums.
export { AVATAR_STATUSES, type AvatarStatus, BRAND_ROLES, VIDEO_JOB_STATUSES, type VideoJobStatus };

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name"),
  // Null for users who only ever signed in with OAuth.
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
});

/** OAuth identities linked to a user (next-auth's account concept; sessions are JWTs, so no session table). */
export const accounts = pgTable(
  "accounts",
  {
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    hashedKey: text("hashed_key").notNull().unique(),
    hint: text("hint").notNull(),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at"),
    revokedAt: at("revoked_at"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);

export const brands = pgTable("brands", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  tone: text("tone").notNull().default(""),
  voice: text("voice").notNull().default(""),
  audience: text("audience").notNull().default(""),
  language: text("language").notNull().default("en"),
  values: jsonb("values").$type<string[]>().notNull().default([]),
  doList: jsonb("do_list").$type<string[]>().notNull().default([]),
  dontList: jsonb("dont_list").$type<string[]>().notNull().default([]),
  bannedWords: jsonb("banned_words").$type<string[]>().notNull().default([]),
  defaultHashtags: jsonb("default_hashtags").$type<string[]>().notNull().default([]),
  primaryColor: text("primary_color").notNull().default("#1F2937"),
  secondaryColor: text("secondary_color").notNull().default("#F59E0B"),
  // Null means the deployment default (VIDEO_MONTHLY_QUOTA).
  monthlyVideoQuota: integer("monthly_video_quota"),
  avatarStatus: text("avatar_status").$type<AvatarStatus>().notNull().default("none"),
  avatarImageKey: text("avatar_image_key"),
  avatarFramesKey: text("avatar_frames_key"),
  avatarError: text("avatar_error"),
  avatarTrainingEndsAt: at("avatar_training_ends_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const brandMembers = pgTable(
  "brand_members",
  {
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<(typeof BRAND_ROLES)[number]>().notNull().default("owner"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.userId] }), index("brand_members_user_idx").on(t.userId)],
);

export type MediaPlan = {
  format: "text_only" | "single_image" | "carousel" | "video";
  items: {
    type: "image" | "video";
    description: string;
    altText: string;
    aspectRatio: "1:1" | "4:5" | "9:16" | "16:9";
    overlayText?: string;
  }[];
};

export type PostAsset = { type: "image" | "video" | "link"; url: string; description?: string };

export const posts = pgTable(
  "posts",
  {
    id: text("id").primaryKey(),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    channel: text("channel").$type<"telegram" | "instagram" | "linkedin">().notNull(),
    goal: text("goal").notNull(),
    topic: text("topic").notNull(),
    toneOverride: text("tone_override"),
    assets: jsonb("assets").$type<PostAsset[]>().notNull().default([]),
    caption: text("caption").notNull(),
    mediaPlan: jsonb("media_plan").$type<MediaPlan>().notNull(),
    hashtags: jsonb("hashtags").$type<string[]>().notNull(),
    status: text("status").$type<"draft">().notNull().default("draft"),
    videoUrl: text("video_url"),
    seed: integer("seed").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("posts_brand_created_idx").on(t.brandId, t.createdAt, t.id)],
);

export const videoJobs = pgTable(
  "video_jobs",
  {
    id: text("id").primaryKey(),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    postId: text("post_id").references(() => posts.id, { onDelete: "set null" }),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    mode: text("mode").$type<"avatar" | "regular">().notNull(),
    script: text("script").notNull(),
    brief: text("brief"),
    referenceVideoId: text("reference_video_id"),
    status: text("status").$type<VideoJobStatus>().notNull().default("queued"),
    progress: integer("progress").notNull().default(0),
    estimatedSeconds: integer("estimated_seconds"),
    videoUrl: text("video_url"),
    thumbnailUrl: text("thumbnail_url"),
    durationSeconds: integer("duration_seconds"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    errorRetryable: boolean("error_retryable"),
    // Calendar month (UTC, "YYYY-MM") the job counts against for the brand's quota.
    quotaMonth: text("quota_month").notNull(),
    queueJobId: text("queue_job_id"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    startedAt: at("started_at"),
    finishedAt: at("finished_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("video_jobs_brand_created_idx").on(t.brandId, t.createdAt),
    index("video_jobs_quota_idx").on(t.brandId, t.quotaMonth),
  ],
);

/** Fixed-window request counters, shared by every web process through the database. */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    key: text("key").notNull(),
    windowStart: at("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    principalId: text("principal_id").notNull(),
    key: text("key").notNull(),
    operation: text("operation").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state").$type<"running" | "done">().notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("idempotency_principal_key_idx").on(t.principalId, t.key)],
);

export type User = typeof users.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Brand = typeof brands.$inferSelect;
export type NewBrand = typeof brands.$inferInsert;
export type BrandMember = typeof brandMembers.$inferSelect;
export type Post = typeof posts.$inferSelect;
export type NewPost = typeof posts.$inferInsert;
export type VideoJob = typeof videoJobs.$inferSelect;
export type NewVideoJob = typeof videoJobs.$inferInsert;
