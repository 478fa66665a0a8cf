import { z } from "zod";
import { learningMeasure, postPatterns } from "@/lib/contracts/learning";
import { CHANNELS } from "@/lib/contracts/post-rules";

/**
 * A channel's best posts as a draft's examples (issue 41). Like the brief, they travel in the user prompt
 * twice: in words for hosted models, and as this tagged JSON block, which the built-in local model reads.
 */
export const draftExamples = z.object({
  channel: z.enum(CHANNELS),
  measure: learningMeasure,
  examples: z.array(
    z.object({
      caption: z.string(),
      hashtags: z.array(z.string()),
      engagementRate: z.number(),
      relative: z.number().nullable(),
      patterns: postPatterns,
    }),
  ),
  /** What the best posts have in common: what a new draft follows. */
  follow: postPatterns,
  /** What the weakest posts have in common: what a new draft avoids. */
  avoid: postPatterns,
});

export type DraftExamples = z.infer<typeof draftExamples>;

const OPEN = "<examples>";
const CLOSE = "</examples>";

/** `<` is escaped so no caption can close the block (or open a brief block) early. */
export function writeExamplesBlock(examples: DraftExamples) {
  return `${OPEN}\n${JSON.stringify(examples).replaceAll("<", "\\u003c")}\n${CLOSE}`;
}

export function readExamplesBlock(prompt: string): DraftExamples | null {
  const start = prompt.indexOf(OPEN);
  const end = prompt.indexOf(CLOSE, start);
  if (start < 0 || end < start) return null;
  try {
    const parsed = draftExamples.safeParse(JSON.parse(prompt.slice(start + OPEN.length, end)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
