/**
 * The enum value lists that the database schema, the zod contracts and the browser share. This module has
 * no imports, so `db/schema` can read it without depending on anything else in `lib`, and a client chunk
 * that needs a status list never pulls in drizzle or the table definitions.
 */

export const AVATAR_STATUSES = ["none", "training", "ready", "failed"] as const;
export type AvatarStatus = (typeof AVATAR_STATUSES)[number];

/** Weakest first: a role may do everything the roles before it may (lib/contracts/permissions.ts). */
export const BRAND_ROLES = ["viewer", "editor", "owner"] as const;
export type BrandRole = (typeof BRAND_ROLES)[number];

export const VIDEO_JOB_STATUSES = ["queued", "running", "succeeded", "failed", "canceled"] as const;
export type VideoJobStatus = (typeof VIDEO_JOB_STATUSES)[number];

/**
 * DESIGN §10: draft → (in_review → approved, when the brand requires approval) → scheduled → published.
 * Editing an approved or scheduled post sends it back to draft (or in_review).
 */
export const POST_STATUSES = ["draft", "in_review", "approved", "scheduled", "published"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** A channel connection: `needs_reconnect` once the platform refused its token (an owner reconnects it). */
export const CHANNEL_CONNECTION_STATUSES = ["active", "needs_reconnect"] as const;
export type ChannelConnectionStatus = (typeof CHANNEL_CONNECTION_STATUSES)[number];

/**
 * DESIGN §10: scheduled → publishing → published | failed; canceled from scheduled or held. §11: `held` while
 * the post waits for a new approval after an edit (back to scheduled when an owner approves it).
 */
export const PUBLICATION_STATUSES = [
  "scheduled",
  "held",
  "publishing",
  "published",
  "failed",
  "canceled",
] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];
/** Where on the channel a publication goes: the feed, or (Instagram only) the account's story. */
export const PUBLICATION_PLACEMENTS = ["feed", "story"] as const;
export type PublicationPlacement = (typeof PUBLICATION_PLACEMENTS)[number];

/** Where a new draft's images come from: branded cards drawn at once, or the image model in the background. */
export const IMAGE_SOURCES = ["cards", "model"] as const;
export type ImageSource = (typeof IMAGE_SOURCES)[number];
/** A background model image's state: queued, being made, in place, or failed (the card stays). */
export const IMAGE_JOB_STATES = ["pending", "generating", "ready", "failed"] as const;
export type MediaImageJob = {
  state: (typeof IMAGE_JOB_STATES)[number];
  error?: string;
  /** Stored only, never shown: the card a ready model image replaced, so an edit sent with it keeps the image. */
  card?: string;
};
