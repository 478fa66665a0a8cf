/** What the activity log records (zod-free, so the browser can label entries). */
export const ACTIVITY_ACTIONS = [
  "brand.created",
  "brand.updated",
  "brand.avatar_uploaded",
  "brand.kit_updated",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "invitation.created",
  "invitation.resent",
  "invitation.revoked",
  "post.created",
  "post.updated",
  "post.submitted",
  "post.approved",
  "post.changes_requested",
  // Written by database triggers (migration 0007): a post's insert, and a publication reaching `published`.
  "post.published",
  "post.deleted",
  // Publishing (issue 39): who scheduled, moved or canceled a publication, and a run's failure (named after
  // who scheduled it, as post.published is); channel connections made (or reconnected) and removed.
  "publication.scheduled",
  "publication.moved",
  "publication.canceled",
  "publication.failed",
  "channel.connected",
  "channel.disconnected",
  "video.created",
  "video.canceled",
  // API keys and webhooks belong to a person and act on every brand they are a member of, so each of those
  // brands' logs records them.
  "api_key.created",
  "api_key.revoked",
  "webhook.created",
  "webhook.revoked",
  // A person's own LinkedIn or Instagram account leaves the brand with them (removed, or account deleted).
  "channel.personal_disconnected",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];
