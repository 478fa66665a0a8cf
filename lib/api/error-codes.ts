/** DESIGN §4 as code: every error code, its HTTP status and whether the same request may succeed later. */
export const ERROR_CODES = {
  invalid_request: { status: 400, retryable: false },
  unauthorized: { status: 401, retryable: false },
  not_found: { status: 404, retryable: false },
  method_not_allowed: { status: 405, retryable: false },
  brief_too_short: { status: 422, retryable: false },
  brand_context_missing: { status: 422, retryable: false },
  moderation_required: { status: 422, retryable: false },
  generation_failed: { status: 502, retryable: true },
  brand_not_ready: { status: 409, retryable: false },
  avatar_training: { status: 409, retryable: true },
  quota_exceeded: { status: 429, retryable: false },
  rate_limited: { status: 429, retryable: true },
  email_taken: { status: 409, retryable: false },
  idempotency_conflict: { status: 409, retryable: false },
  provider_unavailable: { status: 503, retryable: true },
  service_unavailable: { status: 503, retryable: true },
  payload_too_large: { status: 413, retryable: false },
  forbidden: { status: 403, retryable: false },
  job_not_cancelable: { status: 409, retryable: false },
  post_not_approved: { status: 409, retryable: false },
  invitation_unavailable: { status: 410, retryable: false },
  last_owner: { status: 409, retryable: false },
  channel_reauth_required: { status: 409, retryable: false },
  publish_rule_violation: { status: 422, retryable: false },
  channel_check_failed: { status: 422, retryable: false },
  publication_not_cancelable: { status: 409, retryable: false },
  publish_outcome_unknown: { status: 502, retryable: false },
  internal_error: { status: 500, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
