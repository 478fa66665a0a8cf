/**
 * The results the fake platforms report for their posts: numbers that grow when a test (or
 * `POST /__fake/insights {"advance": n}` from another process) advances them, and none at all for a post
 * no advance has reached yet (a fresh post: the platform has no data). Followers grow with every advance too.
 * Knobs shared by the three fakes' insight calls: `denied` (the app was not granted the analytics scope or
 * product), `rateLimit` (the next N insight calls are throttled), `latencyMs`, and `usagePercent` (the
 * share of the rate limit already used, which Instagram reports in X-Business-Use-Case-Usage).
 */

export type FakeInsightsBehavior = {
  denied: boolean;
  rateLimit: { count: number; retryAfterSeconds: number };
  latencyMs: number;
  usagePercent: number;
};

export type FakeInsightValues = {
  views: number;
  reach: number;
  likes: number;
  comments: number;
  shares: number;
  saved: number;
};

export type FakeInsights = {
  behavior: FakeInsightsBehavior;
  /** Every post id the fake made, from the moment it was made (0 steps: no data yet). */
  track: (postId: string) => void;
  /** Moves every tracked post (and the follower count) `steps` steps on. */
  advance: (steps?: number) => void;
  /** A post's numbers now, or null while it has no data. */
  values: (postId: string) => FakeInsightValues | null;
  followers: () => number;
  /** Throttled now? (consumes one from `rateLimit.count`) */
  throttled: () => boolean;
  wait: () => Promise<void>;
  /** Handles `POST /__fake/insights` (`advance`, and any behavior field); answers the new state. */
  control: (body: Record<string, unknown>) => unknown;
};

/** `onAdvance`: runs after every advance (Telegram turns it into message_reaction_count updates). */
export function createFakeInsights(options: { onAdvance?: () => void } = {}): FakeInsights {
  const steps = new Map<string, number>();
  let followerSteps = 0;
  const behavior: FakeInsightsBehavior = {
    denied: false,
    rateLimit: { count: 0, retryAfterSeconds: 2 },
    latencyMs: 0,
    usagePercent: 5,
  };
  const insights: FakeInsights = {
    behavior,
    track: (postId) => {
      if (!steps.has(postId)) steps.set(postId, 0);
    },
    advance: (count = 1) => {
      for (const [postId, step] of steps) steps.set(postId, step + count);
      followerSteps += count;
      options.onAdvance?.();
    },
    values: (postId) => {
      const step = steps.get(postId) ?? 0;
      if (step === 0) return null;
      return {
        views: 120 * step,
        reach: 80 * step,
        likes: 9 * step,
        comments: 3 * step,
        shares: 2 * step,
        saved: step,
      };
    },
    followers: () => 1000 + 25 * followerSteps,
    throttled: () => {
      if (behavior.rateLimit.count <= 0) return false;
      behavior.rateLimit.count--;
      return true;
    },
    wait: () =>
      behavior.latencyMs
        ? new Promise((resolve) => setTimeout(resolve, behavior.latencyMs))
        : Promise.resolve(),
    control: (body) => {
      const { advance, ...rest } = body;
      Object.assign(behavior, rest);
      if (typeof advance === "number") insights.advance(advance);
      return { behavior, followers: insights.followers(), posts: Object.fromEntries(steps) };
    },
  };
  return insights;
}
