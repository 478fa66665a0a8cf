import "server-only";

/**
 * Channels a platform has asked to wait (a 429 with retry_after), per process. A run whose channel is
 * waiting makes no call: its publication is rescheduled for when the channel may be called again, so a
 * rate-limited channel's backlog costs one claim each instead of a doomed call each, and the worker's slots
 * go to the other channels meanwhile. Each worker process learns of a limit from its own 429.
 */
const globalForBackoff = globalThis as unknown as { brandStudioChannelBackoff?: Map<string, number> };
const waiting = () => {
  globalForBackoff.brandStudioChannelBackoff ??= new Map();
  return globalForBackoff.brandStudioChannelBackoff;
};

/** The channel may not be called for `seconds` (a later limit already known wins). */
export function backOffChannel(channelId: string, seconds: number) {
  const until = Date.now() + seconds * 1000;
  const known = waiting().get(channelId) ?? 0;
  if (until > known) waiting().set(channelId, until);
}

/** When the channel may be called again, or null when it may be now. */
export function channelWaitsUntil(channelId: string | null): Date | null {
  if (!channelId) return null;
  const until = waiting().get(channelId);
  if (until === undefined) return null;
  if (until <= Date.now()) {
    waiting().delete(channelId);
    return null;
  }
  return new Date(until);
}
