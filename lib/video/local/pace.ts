export type Pace = { wordsPerMinute: number; pauseSeconds: number; minSceneSeconds: number };

/** The local renderer reads the pace from the brief; a hosted provider would pass the brief on. */
export function paceFromBrief(brief: string | null): Pace {
  if (brief && /\b(short|quick|fast|snappy|punchy|energetic)\b/i.test(brief)) {
    return { wordsPerMinute: 200, pauseSeconds: 0.3, minSceneSeconds: 2 };
  }
  if (brief && /\b(slow|calm|relaxed|gentle|soothing)\b/i.test(brief)) {
    return { wordsPerMinute: 150, pauseSeconds: 1, minSceneSeconds: 3 };
  }
  return { wordsPerMinute: 175, pauseSeconds: 0.6, minSceneSeconds: 2.5 };
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
export const readingSeconds = (text: string, pace: Pace) =>
  Math.max(pace.minSceneSeconds, (wordCount(text) * 60) / pace.wordsPerMinute + pace.pauseSeconds);
