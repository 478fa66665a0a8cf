/** The events a webhook can subscribe to. No zod: the settings page lists them without the contract. */
export const WEBHOOK_EVENTS = [
  "video.succeeded",
  "video.failed",
  "video.canceled",
  "post.published",
  "post.publish_failed",
] as const;
