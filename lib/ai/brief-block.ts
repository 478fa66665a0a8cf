import { z } from "zod";
import { CHANNELS, GOALS, postAsset } from "@/lib/contracts/posts";

/**
 * The brief travels to the model inside the user prompt twice: as prose for hosted models, and as this
 * tagged JSON block, which the built-in local model reads instead of guessing at prose.
 */
export const postBrief = z.object({
  channel: z.enum(CHANNELS),
  goal: z.enum(GOALS),
  topic: z.string(),
  assets: z.array(postAsset),
  captionLimit: z.number().int().positive(),
  captionLimitWithMedia: z.number().int().positive(),
  maxHashtags: z.number().int().positive(),
  /** The language to write in (BCP 47); absent: English. */
  language: z.string().optional(),
});

export type PostBrief = z.infer<typeof postBrief>;

const OPEN = "<brief>";
const CLOSE = "</brief>";

export function writeBriefBlock(brief: PostBrief) {
  return `${OPEN}\n${JSON.stringify(brief)}\n${CLOSE}`;
}

export function readBriefBlock(prompt: string): PostBrief | null {
  const start = prompt.lastIndexOf(OPEN);
  const end = prompt.lastIndexOf(CLOSE);
  if (start < 0 || end < start) return null;
  try {
    const parsed = postBrief.safeParse(JSON.parse(prompt.slice(start + OPEN.length, end)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
