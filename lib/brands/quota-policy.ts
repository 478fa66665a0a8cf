import { getEnv } from "@/lib/config";
import { ApiError } from "@/lib/errors/api-error";

/**
 * Quota governance (docs/contract-notes.md): the operator sets the default (VIDEO_MONTHLY_QUOTA) and the cap
 * (VIDEO_MONTHLY_QUOTA_MAX, the default when unset). Only a brand's owner may set its own quota, and never
 * above the cap; the cap also bounds quotas saved before it was lowered.
 */
export function quotaCap() {
  const env = getEnv();
  return env.VIDEO_MONTHLY_QUOTA_MAX ?? env.VIDEO_MONTHLY_QUOTA;
}

/** The quota that applies to a brand: its own, or the default, and never above the operator's cap. */
export function effectiveMonthlyQuota(brandQuota: number | null) {
  return Math.min(brandQuota ?? getEnv().VIDEO_MONTHLY_QUOTA, quotaCap());
}

const refuse = (message: string) =>
  new ApiError("invalid_request", message, { details: [{ path: "monthlyVideoQuota", message }] });

/** Throws 400 naming monthlyVideoQuota when this member may not set it to this value. */
export function assertQuotaChangeAllowed({
  role,
  value,
}: {
  role: string;
  value: number | null | undefined;
}) {
  if (value === undefined) return;
  if (role !== "owner") throw refuse("Only the brand's owner can change the monthly video quota.");
  const cap = quotaCap();
  if (value !== null && value > cap) {
    throw refuse(`The monthly video quota can be at most ${cap} on this server.`);
  }
}
