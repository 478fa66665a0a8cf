import { z } from "zod";
import {
  BRIEF_LIMITS,
  BRIEF_TOO_SHORT_MESSAGE,
  channel,
  generatePostBody,
  goal,
  isTopicLongEnough,
  postAsset,
} from "@/lib/contracts/posts";

/**
 * The brief as the form holds it, checked in the browser with the contract's own rules (the same zod
 * pieces the API validates with, plus the brief_too_short rule), so errors show beside their fields
 * before anything is sent. The studio loads this module (and zod with it) when the user starts on the
 * brief, so the page's first load carries no schema.
 */
export const briefFormSchema = z.object({
  brandId: z.string().min(1, "Choose a brand."),
  channel,
  topic: generatePostBody.shape.topic.refine(isTopicLongEnough, BRIEF_TOO_SHORT_MESSAGE),
  goal,
  toneOverride: z
    .string()
    .trim()
    .max(
      BRIEF_LIMITS.toneOverride,
      `The tone override can be at most ${BRIEF_LIMITS.toneOverride} characters.`,
    ),
  assets: z
    .array(
      z.object({
        type: postAsset.shape.type,
        // An empty row is left out when the brief is sent.
        url: z.union([z.literal(""), postAsset.shape.url], { error: "Use a full http(s) URL." }),
        description: z
          .string()
          .trim()
          .max(BRIEF_LIMITS.assetDescription, `At most ${BRIEF_LIMITS.assetDescription} characters.`),
      }),
    )
    .max(BRIEF_LIMITS.assets),
  /** The brand's languages to write in; empty: its main one (a brand with one language shows no choice). */
  languages: z.array(z.string()).default([]),
});

/** Messages by field path (`topic`, `assets.0.url`), the first issue of each field. */
export type BriefErrors = Partial<Record<string, string>>;

/** Checks the brief; on success returns it as the schema parses it (trimmed). */
export function checkBrief(
  values: z.input<typeof briefFormSchema>,
): { ok: true; brief: z.output<typeof briefFormSchema> } | { ok: false; errors: BriefErrors } {
  const parsed = briefFormSchema.safeParse(values);
  if (parsed.success) return { ok: true, brief: parsed.data };
  const errors: BriefErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path.join(".")] ??= issue.message;
  return { ok: false, errors };
}
