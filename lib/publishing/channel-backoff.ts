import "server-only";

/**
 * Channels a platform has asked to wait (a 429 with retry_after), and the pace each has taught, per process.
 * A run whose channel is waiting makes no call: its publication is rescheduled for when the channel may be
 * called again, so a rate-limited channel's backlog costs no doomed call, and the worker's lanes go to the
 * other channels meanwhile. Each worker process learns of a limit from its own 429.
 *
 * The pace: a 429 after this process's last n sends to the channel, the first of them at `s`, answering
 * retry_after R at `t`, says the channel takes about n sends per (t + R − s) (a sliding window whose oldest
 * send leaves it when the wait is over). From then on the channel is called at most that often, so the
 * later windows of a backlog need no 429 to find their limit.
 */
type ChannelState = {
  /** No call before this (epoch ms); 0 when none is asked. */
  until: number;
  /** This process's recent successful sends to the channel (epoch ms, oldest first). */
  sends: number[];
  /** The pace learned from a 429, if any. */
  pace: { messages: number; windowMs: number } | null;
};

/** A paced send waits this much longer than the window it learned (our clock and the platform's differ). */
const PACE_MARGIN_MS = 100;

/** How far back a channel's sends are remembered (Telegram's longest window is a minute). */
const MEMORY_MS = 120_000;

const globalForBackoff = globalThis as unknown as { brandStudioChannelPace?: Map<string, ChannelState> };
const channels = () => {
  globalForBackoff.brandStudioChannelPace ??= new Map();
  return globalForBackoff.brandStudioChannelPace;
};
const stateOf = (channelId: string) => {
  let state = channels().get(channelId);
  if (!state) {
    state = { until: 0, sends: [], pace: null };
    channels().set(channelId, state);
  }
  return state;
};

/** A send the platform accepted at `at` (counted towards the channel's pace). */
export function noteChannelSend(channelId: string | null, at = Date.now()) {
  if (!channelId) return;
  const { sends } = stateOf(channelId);
  sends.push(at);
  const forget = Date.now() - MEMORY_MS;
  while (sends.length > 0 && (sends[0] < forget || sends.length > 500)) sends.shift();
}

/**
 * The platform answered 429: the channel may not be called for `seconds` (a later limit already known
 * wins), and its pace is learned from the sends made since the last wait ended. Answers when it may be
 * called again.
 */
export function backOffChannel(channelId: string, seconds: number): Date {
  const now = Date.now();
  const until = now + seconds * 1000;
  const state = stateOf(channelId);
  const since = Math.max(state.until, now - MEMORY_MS);
  const counted = state.sends.filter((at) => at >= since);
  if (counted.length > 0)
    state.pace = { messages: counted.length, windowMs: Math.max(1000, until - counted[0]) };
  if (until > state.until) state.until = until;
  return new Date(state.until);
}

/** When the channel may be called again (its wait, else its pace), or null when it may be now. */
export function channelWaitsUntil(channelId: string | null): Date | null {
  if (!channelId) return null;
  const state = channels().get(channelId);
  if (!state) return null;
  const now = Date.now();
  if (state.until > now) return new Date(state.until);
  if (state.pace) {
    const { messages, windowMs } = state.pace;
    const inWindow = state.sends.filter((at) => at > now - windowMs);
    if (inWindow.length >= messages)
      return new Date(inWindow[inWindow.length - messages] + windowMs + PACE_MARGIN_MS);
  }
  return null;
}
