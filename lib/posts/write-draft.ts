import type { PostBrief } from "@/lib/ai/brief-block";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { ModerationUnavailableError } from "@/lib/ai/moderation";
import { ApiError } from "@/lib/api/api-error";
import { log } from "@/lib/log";
import { briefPrompt } from "./brief-prompt";
import { callDraftModel } from "./call-draft-model";
import { channelRuleIssues, type PostContent, repairDraft } from "./channel-rules";
import { type ModerationFlag, moderateContent, moderationError } from "./moderate-content";

/** Model calls per draft: the first try and two more. Each is bounded by the choice's timeout. */
export const MAX_ATTEMPTS = 3;
const BACKOFF_MS = [0, 250, 750];

export type Draft = {
  content: PostContent;
  provider: string;
  model: string;
  latencyMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
};

const sum = (a: number | null, b: number | undefined) => (b === undefined ? a : (a ?? 0) + b);

/**
 * Asks the model for a draft, repairs it to the channel's rules, and moderates it. A failed call, unusable
 * output or a flagged draft is tried again, up to MAX_ATTEMPTS; then the last reason is the answer.
 */
export async function writeDraft({
  choice,
  system,
  brief,
  bannedWords,
  seed,
  requestId,
}: {
  choice: TextModelChoice;
  system: string;
  brief: PostBrief;
  bannedWords: string[];
  seed: number;
  requestId?: string;
}): Promise<Draft> {
  const prompt = briefPrompt(brief);
  const started = Date.now();
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let flagged: ModerationFlag | null = null;

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (BACKOFF_MS[attempt]) await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[attempt]));
    try {
      const result = await callDraftModel({ choice, system, prompt, seed });
      inputTokens = sum(inputTokens, result.inputTokens);
      outputTokens = sum(outputTokens, result.outputTokens);
      const content = repairDraft(brief.channel, result.output, brief.maxHashtags);
      const issues = channelRuleIssues(brief.channel, content);
      if (issues.length) throw new Error(`The draft breaks the channel rules: ${JSON.stringify(issues)}`);
      flagged = await moderateContent({
        stage: "output",
        content: {
          texts: [
            content.caption,
            ...content.mediaPlan.items.flatMap((item) => [
              item.description,
              item.altText,
              item.overlayText ?? "",
            ]),
          ],
          hashtags: content.hashtags,
        },
        bannedWords,
        choice,
      });
      if (flagged) {
        log.warn("post_draft_flagged", {
          requestId,
          attempt,
          categories: flagged.categories,
          terms: flagged.terms,
        });
        continue;
      }
      return {
        content,
        provider: choice.provider,
        model: choice.model,
        latencyMs: Date.now() - started,
        inputTokens,
        outputTokens,
      };
    } catch (error) {
      flagged = null;
      log.warn("post_draft_failed", {
        requestId,
        attempt,
        provider: choice.provider,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      if (error instanceof ModerationUnavailableError) break;
    }
  }
  if (flagged) throw moderationError(flagged);
  throw new ApiError(
    "generation_failed",
    "The writing model failed to produce a usable draft. Nothing was saved; try again in a moment.",
  );
}
