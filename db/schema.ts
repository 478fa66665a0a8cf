import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
// Types only (erased at build): db/ imports nothing from lib/ at run time. The value lists live in
// lib/contracts/enums.ts, a leaf the browser may import.
import type {
  AvatarStatus,
  BrandRole,
  ChannelConnectionStatus,
  ImageSource,
  MediaImageJob,
  PostStatus,
  PublicationPlacement,
  PublicationStatus,
  VideoJobStatus,
} from "@/lib/contracts/enums";
import type { LearnedFrom } from "@/lib/contracts/learning";
import type { MetricName, MissingMetrics } from "@/lib/contracts/metric-names";

export type {
  AvatarStatus,
  BrandRole,
  ChannelConnectionStatus,
  ImageSource,
  MediaImageJob,
  PostStatus,
  PublicationStatus,
  VideoJobStatus,
};

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
  // The main language; always languages[0] (kept for clients that know only one language).
  language: text("language").notNull().default("en"),
  // Every language the brand speaks (BCP 47), the main one first (DESIGN §11).
  languages: jsonb("languages").$type<string[]>().notNull().default(["en"]),
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
  // The hosted provider the avatar was uploaded to, and its reference there (a HeyGen talking_photo_id,
  // a D-ID image URL). Null with the local renderer.
  avatarProvider: text("avatar_provider"),
  avatarProviderRef: text("avatar_provider_ref"),
  // The brand kit: a logo (media key of the rasterised PNG), a bundled font id
  // (lib/contracts/brand-kit-rules.ts), a music bed (media key), and a TTS voice (null: TTS_VOICE).
  logoKey: text("logo_key"),
  font: text("font").notNull().default("sans"),
  musicKey: text("music_key"),
  ttsVoice: text("tts_voice"),
  // Teams and publishing (DESIGN §10): posts need an owner's approval before they are scheduled or
  // published; times are shown in this IANA time zone.
  requiresApproval: boolean("requires_approval").notNull().default(false),
  timeZone: text("time_zone").notNull().default("UTC"),
  // Where a new draft's media-plan images come from (lib/contracts/post-rules.ts IMAGE_SOURCES): branded
  // cards drawn at once, or the image model in the background (each item starts with its card).
  imageSource: text("image_source").$type<ImageSource>().notNull().default("cards"),
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
    role: text("role").$type<BrandRole>().notNull().default("owner"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.userId] }), index("brand_members_user_idx").on(t.userId)],
);

/**
 * An owner's invitation to join a brand with a role. The link carries a random token; only its SHA-256 is
 * kept. It works once, until `expiresAt`, unless revoked; a resend issues a new token (the old link stops).
 */
export const brandInvitations = pgTable(
  "brand_invitations",
  {
    id: text("id").primaryKey(),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").$type<BrandRole>().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
    acceptedAt: at("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: at("revoked_at"),
  },
  (t) => [
    index("brand_invitations_brand_idx").on(t.brandId, t.createdAt, t.id),
    // At most one open (not accepted, not revoked) invitation per brand and email, whatever its case: a
    // second invite re-issues it (lib/teams/invite.ts), and two at once cannot both insert.
    uniqueIndex("brand_invitations_open_email_idx")
      .on(t.brandId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);

/**
 * Who did what to a brand, and when; written in the same transaction as the change it records. `actorId`
 * goes null when that account is deleted (the entry stays, with `actorEmail` as it was).
 */
export const activityLog = pgTable(
  "activity_log",
  {
    id: text("id").primaryKey(),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    subjectType: text("subject_type"),
    subjectId: text("subject_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("activity_log_brand_created_idx").on(t.brandId, t.createdAt, t.id)],
);

export type MediaPlan = {
  format: "text_only" | "single_image" | "carousel" | "video";
  items: {
    type: "image" | "video";
    description: string;
    altText: string;
    aspectRatio: "1:1" | "4:5" | "9:16" | "16:9";
    overlayText?: string;
    /** The item's image in the media store (generated, drawn or uploaded); responses sign a URL for it. */
    imageKey?: string;
    /** The background model image for this item (lib/posts/draft-images.ts); not part of the content. */
    imageJob?: MediaImageJob | null;
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
    // Null once that account is deleted; the brand keeps the post.
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    channel: text("channel").$type<"telegram" | "instagram" | "linkedin">().notNull(),
    goal: text("goal").notNull(),
    topic: text("topic").notNull(),
    toneOverride: text("tone_override"),
    // The language the post is written in (BCP 47), and its post group: the posts one brief gave in the
    // brand's languages share it (the group is named by its first post's id; a lone post is its own group).
    language: text("language").notNull().default("en"),
    groupId: text("group_id").notNull(),
    assets: jsonb("assets").$type<PostAsset[]>().notNull().default([]),
    caption: text("caption").notNull(),
    mediaPlan: jsonb("media_plan").$type<MediaPlan>().notNull(),
    hashtags: jsonb("hashtags").$type<string[]>().notNull(),
    status: text("status").$type<PostStatus>().notNull().default("draft"),
    videoUrl: text("video_url"),
    // Approval (DESIGN §10): the last review action on the post, who took it, and the owner's comment.
    reviewAction: text("review_action").$type<"submitted" | "approved" | "changes_requested">(),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: at("reviewed_at"),
    reviewComment: text("review_comment"),
    // The version (content hash, lib/posts/content-hash.ts) the last approval approved (DESIGN §11).
    approvedHash: text("approved_hash"),
    seed: integer("seed").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    // Which of the brand's measured posts the draft took as examples (issue 41); null before learning existed.
    learnedFrom: jsonb("learned_from").$type<LearnedFrom>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("posts_brand_created_idx").on(t.brandId, t.createdAt, t.id),
    index("posts_group_idx").on(t.groupId),
  ],
);

export const videoJobs = pgTable(
  "video_jobs",
  {
    id: text("id").primaryKey(),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    postId: text("post_id").references(() => posts.id, { onDelete: "set null" }),
    // Null once that account is deleted; the brand keeps the post.
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    mode: text("mode").$type<"avatar" | "regular">().notNull(),
    // The frame's shape; the renderer makes the short side 720 px.
    aspectRatio: text("aspect_ratio").$type<"9:16" | "4:5" | "1:1" | "16:9">().notNull().default("16:9"),
    script: text("script").notNull(),
    brief: text("brief"),
    referenceVideoId: text("reference_video_id"),
    status: text("status").$type<VideoJobStatus>().notNull().default("queued"),
    progress: integer("progress").notNull().default(0),
    estimatedSeconds: integer("estimated_seconds"),
    /** The finished video's media key (responses sign a URL for it); older rows hold `/media/<key>`. */
    videoUrl: text("video_url"),
    /** The poster's media key, like videoUrl. */
    thumbnailUrl: text("thumbnail_url"),
    durationSeconds: integer("duration_seconds"),
    // Burned-in captions (default on), and the .vtt sidecar's media key once rendered.
    captions: boolean("captions").notNull().default(true),
    captionsKey: text("captions_key"),
    // The voice that spoke the finished video (`espeak-ng:es`, `openai:nova`); null without one.
    voice: text("voice"),
    // What the job could not do but still succeeded without (no speech engine, …), shown to the user.
    warnings: jsonb("warnings").$type<string[]>().notNull().default([]),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    errorRetryable: boolean("error_retryable"),
    // Calendar month (UTC, "YYYY-MM") the job counts against for the brand's quota.
    quotaMonth: text("quota_month").notNull(),
    queueJobId: text("queue_job_id"),
    attempts: integer("attempts").notNull().default(0),
    // A hosted provider's id for the job, stored before the worker waits on it, so a worker that dies
    // resumes polling this id instead of submitting again.
    provider: text("provider"),
    providerJobId: text("provider_job_id"),
    providerSubmittedAt: at("provider_submitted_at"),
    createdAt: createdAt(),
    startedAt: at("started_at"),
    finishedAt: at("finished_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("video_jobs_brand_created_idx").on(t.brandId, t.createdAt),
    index("video_jobs_quota_idx").on(t.brandId, t.quotaMonth),
    index("video_jobs_provider_job_idx").on(t.provider, t.providerJobId),
  ],
);

/**
 * One circuit breaker per hosted video provider, shared by every process through the database: repeated
 * 5xx answers or timeouts open it until `openedUntil`; after that one request may try (half-open).
 */
export const providerCircuits = pgTable("provider_circuits", {
  provider: text("provider").primaryKey(),
  failures: integer("failures").notNull().default(0),
  openedUntil: at("opened_until"),
  lastError: text("last_error"),
  updatedAt: updatedAt(),
});

export const WEBHOOK_EVENT_TYPES = [
  "video.succeeded",
  "video.failed",
  "video.canceled",
  "post.published",
  "post.publish_failed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | "webhook.test";

/** A user's endpoint for Standard Webhooks events; `secret` is the whsec_… signing secret. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: jsonb("events").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId)],
);

/** One message to one endpoint; its id is the `webhook-id` on every attempt. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deliveredAt: at("delivered_at"),
  },
  (t) => [index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt)],
);

/**
 * A brand's connection to a publishing channel (DESIGN §10). `credentials` is encrypted at rest
 * (lib/security/encrypt-secret.ts, bound to the row's id) and never leaves the server.
 */
export const channelConnections = pgTable(
  "channel_connections",
  {
    id: text("id").primaryKey(),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    channel: text("channel").$type<"telegram" | "instagram" | "linkedin">().notNull(),
    // The platform's id of the account or chat posts go to (a Telegram chat id), and its display name.
    externalId: text("external_id").notNull(),
    accountName: text("account_name").notNull(),
    accountHandle: text("account_handle"),
    avatarUrl: text("avatar_url"),
    // The language the channel speaks (BCP 47): "Publish all languages" sends it that language's version.
    language: text("language").notNull().default("en"),
    credentials: text("credentials").notNull(),
    // The permissions the platform granted at the last connect (Instagram's token exchange names them); null
    // when not known (connected before they were kept, or a platform that does not say).
    grantedScopes: text("granted_scopes").array(),
    status: text("status").$type<ChannelConnectionStatus>().notNull().default("active"),
    statusMessage: text("status_message"),
    // Kept when its creator deletes their account (DELETE /api/users/me), like posts and video jobs.
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    // Whose consent the tokens carry (the last to connect or reconnect it). A personal account (a LinkedIn
    // member, Instagram) leaves the brand with this person (lib/publishing/personal-channels.ts).
    connectedBy: text("connected_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("channel_connections_brand_idx").on(t.brandId, t.createdAt),
    uniqueIndex("channel_connections_target_idx").on(t.brandId, t.channel, t.externalId),
  ],
);

/**
 * One post sent (or to be sent) to one channel connection. `callStartedAt` is written and committed
 * before the platform is called, so a worker that dies mid-call leaves a row the sweep will never send
 * again; `claimToken` + `leaseUntil` make one handler at a time own the row.
 */
export const publications = pgTable(
  "publications",
  {
    id: text("id").primaryKey(),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    postId: text("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    // Null once the connection is removed (the publication stays in the history).
    channelId: text("channel_id").references(() => channelConnections.id, { onDelete: "set null" }),
    channel: text("channel").$type<"telegram" | "instagram" | "linkedin">().notNull(),
    // Kept when its creator deletes their account (DELETE /api/users/me), like posts and video jobs.
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    status: text("status").$type<PublicationStatus>().notNull().default("scheduled"),
    placement: text("placement").$type<PublicationPlacement>().notNull().default("feed"),
    publishAt: at("publish_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    claimToken: text("claim_token"),
    leaseUntil: at("lease_until"),
    callStartedAt: at("call_started_at"),
    // What the call was made with that can later tell whether it posted (Instagram: the container id).
    callRef: text("call_ref"),
    nextAttemptAt: at("next_attempt_at"),
    // The channel's schedule slot the publication took ("Add to queue"); null when it was given a time, and
    // cleared when it is moved. One active publication per channel and slot (the unique index below).
    slotAt: at("slot_at"),
    externalId: text("external_id"),
    permalink: text("permalink"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    errorRetryable: boolean("error_retryable"),
    createdAt: createdAt(),
    startedAt: at("started_at"),
    publishedAt: at("published_at"),
    finishedAt: at("finished_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("publications_brand_publish_at_idx").on(t.brandId, t.publishAt),
    index("publications_post_idx").on(t.postId),
    index("publications_status_idx").on(t.status, t.leaseUntil),
    // Analytics: a brand's publications published in a period.
    index("publications_brand_published_at_idx").on(t.brandId, t.publishedAt),
    // A slot never holds two posts of one channel, even when two "Add to queue" calls race for it.
    uniqueIndex("publications_channel_slot_idx")
      .on(t.channelId, t.slotAt)
      .where(sql`${t.slotAt} IS NOT NULL AND ${t.status} IN ('scheduled', 'held')`),
  ],
);

/**
 * A channel connection's posting schedule: weekly slots, each a weekday (ISO, 1 Monday) and a time of day
 * (minutes after midnight) in the brand's time zone. "Add to queue" takes the next free one.
 */
export const channelScheduleSlots = pgTable(
  "channel_schedule_slots",
  {
    channelId: text("channel_id")
      .notNull()
      .references(() => channelConnections.id, { onDelete: "cascade" }),
    weekday: integer("weekday").notNull(),
    minute: integer("minute").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.weekday, t.minute] })],
);

/**
 * A publication's results over time (DESIGN §11): one row per metric per capture. Values are counts as the
 * platform reported them at `captured_at`; a metric a platform does not give, or has not given yet, has no
 * row (never a 0 row).
 */
export const publicationMetrics = pgTable(
  "publication_metrics",
  {
    publicationId: text("publication_id")
      .notNull()
      .references(() => publications.id, { onDelete: "cascade" }),
    metric: text("metric").$type<MetricName>().notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
    capturedAt: at("captured_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicationId, t.metric, t.capturedAt] })],
);

/** The newest value per publication and metric, so reads never scan the history. */
export const publicationMetricLatest = pgTable(
  "publication_metric_latest",
  {
    publicationId: text("publication_id")
      .notNull()
      .references(() => publications.id, { onDelete: "cascade" }),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    metric: text("metric").$type<MetricName>().notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
    capturedAt: at("captured_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.publicationId, t.metric] }),
    index("publication_metric_latest_brand_idx").on(t.brandId, t.metric),
  ],
);

/**
 * When a published publication's results are next pulled (null: never again, past 90 days), what the last
 * pull said of the metrics it did not get (`unavailable` with the reason, or `pending`), and the last
 * failure. One row per published publication, made by the scheduler.
 */
export const publicationMetricPulls = pgTable(
  "publication_metric_pulls",
  {
    publicationId: text("publication_id")
      .primaryKey()
      .references(() => publications.id, { onDelete: "cascade" }),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    channelId: text("channel_id").references(() => channelConnections.id, { onDelete: "set null" }),
    publishedAt: at("published_at").notNull(),
    dueAt: at("due_at"),
    pulledAt: at("pulled_at"),
    refreshRequestedAt: at("refresh_requested_at"),
    missing: jsonb("missing").$type<MissingMetrics>().notNull().default({}),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    failures: integer("failures").notNull().default(0),
  },
  (t) => [
    index("publication_metric_pulls_due_idx").on(t.dueAt),
    index("publication_metric_pulls_brand_idx").on(t.brandId, t.publishedAt),
  ],
);

/**
 * Per channel: when its pulls may run again after a platform's limit (429, quota headers), a notice for
 * its owners (a permission to grant by reconnecting), Telegram's getUpdates offset, and the day its
 * follower count was last read.
 */
export const channelMetricState = pgTable("channel_metric_state", {
  channelId: text("channel_id")
    .primaryKey()
    .references(() => channelConnections.id, { onDelete: "cascade" }),
  backoffUntil: at("backoff_until"),
  notice: text("notice"),
  updateOffset: bigint("update_offset", { mode: "number" }),
  followersPulledAt: at("followers_pulled_at"),
  updatedAt: updatedAt(),
});

/** Subscribers or followers of a channel, one count per channel per UTC day (the day's last reading). */
export const channelFollowerCounts = pgTable(
  "channel_follower_counts",
  {
    channelId: text("channel_id")
      .notNull()
      .references(() => channelConnections.id, { onDelete: "cascade" }),
    brandId: text("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
    capturedAt: at("captured_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.day] }),
    index("channel_follower_counts_brand_idx").on(t.brandId, t.day),
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

/** Failed sign-ins per account ("account:<email>") and per client IP ("ip:<address>"), and their lockouts. */
export const authThrottle = pgTable("auth_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
});

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
export type ChannelConnection = typeof channelConnections.$inferSelect;
export type Publication = typeof publications.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type BrandInvitation = typeof brandInvitations.$inferSelect;
export type ActivityEntry = typeof activityLog.$inferSelect;
export type PublicationMetricPull = typeof publicationMetricPulls.$inferSelect;
