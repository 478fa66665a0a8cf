import type { ErrorCode } from "@/lib/errors/error-codes";

/** When each error code is answered (DESIGN §4), for the OpenAPI document's error responses. */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request:
    "Malformed JSON, a wrong type, an unknown enum value, a missing required field or a field over its size limit. `details` lists the fields.",
  unauthorized: "Missing, malformed, expired or revoked bearer token.",
  not_found: "Unknown id, or an id the caller may not see.",
  method_not_allowed: "The path does not answer this method. `Allow` lists the methods it answers.",
  brief_too_short: "The topic has fewer than 3 words or fewer than 15 characters after trimming.",
  brand_context_missing: "The brand has no tone or no voice set, so there is nothing to write in.",
  language_unsupported:
    "The configured text model cannot write one of the requested languages (the built-in model writes en, es, de, fr and pt). Nothing is saved; `details`: `{ languages, supported }`.",
  moderation_required:
    "The brief or the generated text is flagged by moderation. Nothing is saved; `details` names the categories or terms.",
  generation_failed:
    "The model failed, timed out or returned unusable output after retries. Nothing is saved.",
  brand_not_ready: "Avatar mode without a trained avatar, or the brand lacks a name or tone for any video.",
  avatar_training: "Avatar mode while the avatar is still training. `Retry-After` gives the seconds left.",
  quota_exceeded: "The brand's monthly video quota is used up. `details`: `{ limit, used, resetsAt }`.",
  rate_limited:
    "Too many requests from this token. `Retry-After` and `X-RateLimit-*` headers say when to retry.",
  email_taken: "An account with this email already exists.",
  idempotency_conflict:
    "The same `Idempotency-Key` was sent with a different body, or while the first request is still running.",
  provider_unavailable: "The video provider cannot accept jobs now. No job is created.",
  service_unavailable:
    "The database (or another part the service cannot work without) is unreachable. Nothing was changed; `Retry-After` says when to try again.",
  payload_too_large:
    "The body is over the operation's limit (JSON 256 KB unless stated otherwise; uploads 5 MB). Refused before it is read whole.",
  forbidden:
    "The caller is a member of the brand, but its role may not do this. `details`: `{ role, required }`.",
  session_required:
    "The operation needs a signed-in session (its access token); an API key may not do it (deleting the account).",
  cross_site_request:
    "A browser sent the request from another site (`Sec-Fetch-Site` not `same-origin`, or a foreign `Origin`): starting a channel connection only from the app's own page. `details`: `{ secFetchSite, origin }`.",
  job_not_cancelable:
    "The video job has already succeeded or failed; only a queued or running job can be canceled. `details`: `{ status }`.",
  post_not_approved: "The brand requires approval, and the post has not been approved.",
  post_changed:
    "The post is not the version the request named (body `version` or If-Match): it was edited since the caller read it. Read it again and decide on what it says now. `details`: `{ version }`, the current one.",
  invitation_unavailable:
    "The invitation link cannot be used any more. `details`: `{ reason }`, one of `accepted`, `expired`, `revoked`.",
  already_member:
    "The signed-in user opening an invitation is already a member of its brand; the invitation stays open for the person it was sent to. `details`: `{ brandId, role }`.",
  last_owner:
    "The change would leave a brand without an owner: promote another member first. `details`: `{ brandId }`.",
  channel_reauth_required:
    "The channel connection's token was refused by the platform; an owner must reconnect it.",
  publish_rule_violation:
    "The post breaks the channel's rules (length, media count, media required). `details` names the rule.",
  channel_check_failed:
    "Connecting a channel: the platform refused the check (a wrong token, an unknown chat, a bot that is not an administrator allowed to post, or an OAuth grant the platform refused). `details`: `{ check, platformMessage }`.",
  publication_not_cancelable:
    "The publication has already started, been published or failed; only a scheduled one can be canceled. `details`: `{ status }`.",
  publication_not_reschedulable:
    "The publication has already started, been published, failed or been canceled; only a scheduled one can be moved to another time. `details`: `{ status }`.",
  no_free_slot:
    'Add to queue (`slot: "next"`) on a channel with no posting schedule, or whose slots are all taken as far ahead as a post may be scheduled. An owner adds slots in the channel\'s settings. `details`: `{ reason }` (`no_slots` or `full`).',
  publish_outcome_unknown:
    "A publication's error only (never an HTTP answer): the worker stopped after calling the platform and before it saved the answer. It is never re-sent on its own; check the channel.",
  publication_outcome_known:
    "Only a publication that failed with publish_outcome_unknown can be marked posted or sent again; this one's outcome is known. `details`: `{ status }`.",
  oauth_state_invalid:
    "An OAuth callback whose `state` is malformed, altered, expired (after 10 minutes), for another user, or for another platform. Start connecting again. `details`: `{ reason }`.",
  channel_not_configured:
    "Connecting a platform this deployment has no OAuth client for (LinkedIn: LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET unset; Instagram: INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET unset). `details`: `{ channel, missing }`.",
  internal_error: "Anything unexpected. The message is generic; the log line carries the requestId.",
};

/** Headers that come with an error code, beyond `X-Request-Id`. */
export const ERROR_HEADERS: Partial<Record<ErrorCode, string[]>> = {
  unauthorized: ["WWW-Authenticate"],
  avatar_training: ["Retry-After"],
  method_not_allowed: ["Allow"],
  service_unavailable: ["Retry-After"],
  rate_limited: ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"],
};
