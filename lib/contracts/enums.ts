/**
 * The enum value lists that the database schema, the zod contracts and the browser share. This module has
 * no imports, so `db/schema` can read it without depending on anything else in `lib`, and a client chunk
 * that needs a status list never pulls in drizzle or the table definitions.
 */

export const AVATAR_STATUSES = ["none", "training", "ready", "failed"] as const;
export type AvatarStatus = (typeof AVATAR_STATUSES)[number];

export const BRAND_ROLES = ["owner", "editor"] as const;
export type BrandRole = (typeof BRAND_ROLES)[number];

export const VIDEO_JOB_STATUSES = ["queued", "running", "succeeded", "failed", "canceled"] as const;
export type VideoJobStatus = (typeof VIDEO_JOB_STATUSES)[number];
