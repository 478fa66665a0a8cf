import { z } from "zod";
import type { ErrorCode } from "@/lib/errors/error-codes";
import { BRAND_ROLES } from "./enums";
import { CHANNELS } from "./post-rules";

/**
 * The `details` each error code carries (DESIGN §4), as the services send it. A code that is not listed
 * sends no `details`. The OpenAPI document builds its discriminated ErrorEnvelope from this map, so a
 * generated client types `error.details` by `error.code`.
 */
/** The rules a post can break on a channel (`publish_rule_violation`'s `rule`). */
export const PUBLISH_RULES = [
  "caption_length",
  "media_required",
  "media_count",
  "media_unsupported",
  "media_size",
  "media_duration",
] as const;

export const ERROR_DETAILS: Partial<Record<ErrorCode, z.ZodType>> = {
  invalid_request: z
    .array(
      z.object({
        path: z.string().describe("The field, as a dotted path (`mediaPlan.items.0.altText`), or `(body)`."),
        message: z.string(),
      }),
    )
    .describe("One entry per invalid field."),
  brief_too_short: z.object({
    words: z.int(),
    characters: z.int(),
    minWords: z.int(),
    minCharacters: z.int(),
  }),
  brand_context_missing: z.object({
    brandId: z.string(),
    missing: z.array(z.enum(["tone", "voice"])),
  }),
  language_unsupported: z.object({
    languages: z.array(z.string()).describe("The requested languages the model cannot write."),
    supported: z
      .array(z.string())
      .describe("The languages it can write (primary subtags: pt covers pt-BR and pt-PT)."),
  }),
  moderation_required: z.object({
    stage: z.enum(["brief", "output"]).describe("What was flagged: the brief or the generated text."),
    categories: z.array(z.string()),
    terms: z.array(z.string()).describe("Banned or policy words found, to show the marketer."),
  }),
  brand_not_ready: z
    .object({
      missing: z.array(z.enum(["name", "tone"])).optional(),
      avatarStatus: z.enum(["none", "training", "ready", "failed"]).optional(),
    })
    .describe(
      "`missing` when the brand lacks a name or tone; `avatarStatus` when avatar mode has no avatar.",
    ),
  avatar_training: z.object({ retryAfterSeconds: z.int().describe("The same value as `Retry-After`.") }),
  job_not_cancelable: z.object({
    status: z.enum(["succeeded", "failed"]).describe("The job's status, which cannot change any more."),
  }),
  quota_exceeded: z.object({
    limit: z.int(),
    used: z.int(),
    resetsAt: z.iso.datetime({ offset: true }).describe("When the quota starts over (UTC month)."),
  }),
  publish_rule_violation: z.object({
    channel: z.enum(CHANNELS),
    rule: z.enum(PUBLISH_RULES).describe("Which rule the post breaks."),
    limit: z
      .int()
      .describe("The channel's limit (characters, items, bytes for media_size, seconds for media_duration)."),
    actual: z.int().describe("What the post has."),
    withMedia: z.boolean().describe("Whether the post is sent with media (Telegram allows less text then)."),
  }),
  already_member: z.object({
    brandId: z.string(),
    role: z.enum(BRAND_ROLES).describe("The caller's role in the brand now."),
  }),
  cross_site_request: z.object({
    secFetchSite: z.string().nullable().describe("The browser's Sec-Fetch-Site, when it sent one."),
    origin: z.string().nullable().describe("The request's Origin, when it had one."),
  }),
  post_not_approved: z.object({ status: z.string().describe("The post's status now.") }),
  post_changed: z.object({ version: z.string().describe("The post's current version (its ETag).") }),
  channel_check_failed: z.object({
    check: z
      .enum(["token", "chat", "admin", "unreachable", "oauth"])
      .describe(
        "token: getMe refused the bot token; chat: getChat found no such chat; admin: the bot is not an administrator that may post; unreachable: the platform did not answer; oauth: the user declined, or the platform refused the authorization code.",
      ),
    platformMessage: z.string().nullable().describe("The platform's own description, when it gave one."),
  }),
  oauth_state_invalid: z.object({
    reason: z
      .enum(["malformed", "signature", "expired", "foreign", "channel"])
      .describe(
        "malformed or signature: not a state this server made; expired: older than 10 minutes; foreign: made for another user; channel: made for another platform.",
      ),
  }),
  channel_not_configured: z.object({
    channel: z.enum(CHANNELS),
    missing: z.array(z.string()).describe("The configuration variables to set."),
  }),
  no_free_slot: z.object({
    reason: z
      .enum(["no_slots", "full"])
      .describe("no_slots: the channel has no posting schedule; full: every slot ahead is taken."),
  }),
  publication_not_cancelable: z.object({
    status: z.enum(["publishing", "published", "failed"]).describe("The publication's status now."),
  }),
  publication_outcome_known: z.object({
    status: z
      .enum(["scheduled", "held", "publishing", "published", "failed", "canceled"])
      .describe("The publication's status now."),
  }),
  publication_not_reschedulable: z.object({
    status: z
      .enum(["publishing", "published", "failed", "canceled"])
      .describe("The publication's status now."),
  }),
  forbidden: z.object({
    role: z.enum(BRAND_ROLES).describe("The caller's role on the brand."),
    required: z.enum(BRAND_ROLES).describe("The weakest role that may do this."),
  }),
};
