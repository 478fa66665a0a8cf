import { type DeepPartial, streamText } from "ai";
import type { PostBrief } from "@/lib/ai/brief-block";
import type { DraftExamples } from "@/lib/ai/examples-block";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { ModerationUnavailableError } from "@/lib/ai/moderation";
import { openTextModel } from "@/lib/ai/text-model";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { aiTelemetry } from "@/lib/telemetry/tracing";
import { briefPrompt } from "./brief-prompt";
import { callDraftModel, DRAFT_OUTPUT } from "./call-draft-model";
import { channelRuleIssues, type PostContent, repairDraft } from "./channel-rules";
import type { DraftOutput } from "./draft-output";
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

/** Streaming callbacks: each partial draft as the model writes it, and a new attempt starting over. */
export type DraftStreamHandlers = {
  onPartial: (draft: DeepPartial<DraftOutput>) => void;
  onRetry: (attempt: number) => void;
};

/** The caller went away (Cancel in the studio): stop, retry nothing, save nothing. */
export class DraftCanceledError extends Error {
  constructor() {
    super("The draft was canceled.");
    this.name = "DraftCanceledError";
  }
}

/** One streamed model call for a draft: streamText, with the partial draft passed on as it grows. */
async function streamModel({
  choice,
  system,
  prompt,
  seed,
  signal,
  stream,
}: {
  choice: TextModelChoice;
  system: string;
  prompt: string;
  seed: number;
  signal?: AbortSignal;
  stream: DraftStreamHandlers;
}) {
  let streamError: unknown = null;
  const result = streamText({
    model: openTextModel(choice),
    system,
    prompt,
    output: DRAFT_OUTPUT,
    seed,
    maxRetries: 0,
    timeout: choice.timeoutMs,
    abortSignal: signal,
    // Spans for the model call (timing, token counts), never the prompt or the answer.
    experimental_telemetry: aiTelemetry(),
    onError: ({ error }) => {
      streamError = error;
    },
  });
  for await (const partial of result.partialOutputStream) stream.onPartial(partial);
  if (streamError) throw streamError;
  const usage = await result.usage;
  return { output: await result.output, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
}

/**
 * Asks the model for a draft, repairs it to the channel's rules, and moderates it. A failed call, unusable
 * output or a flagged draft is tried again, up to MAX_ATTEMPTS; then the last reason is the answer.
 */
export async function writeDraft({
  choice,
  system,
  brief,
  examples,
  bannedWords,
  seed,
  requestId,
  signal,
  stream,
}: {
  choice: TextModelChoice;
  system: string;
  brief: PostBrief;
  /** The channel's best posts, when the draft learns from results (lib/posts/learn-from-results.ts). */
  examples?: DraftExamples | null;
  bannedWords: string[];
  seed: number;
  requestId?: string;
  /** Aborts the model call; the draft then fails with DraftCanceledError and nothing is retried. */
  signal?: AbortSignal;
  /** Stream the draft as it is written (streamText) instead of waiting for it whole (generateText). */
  stream?: DraftStreamHandlers;
}): Promise<Draft> {
  const prompt = briefPrompt(brief, examples);
  const started = Date.now();
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let flagged: ModerationFlag | null = null;

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (BACKOFF_MS[attempt]) await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[attempt]));
    if (signal?.aborted) throw new DraftCanceledError();
    if (attempt > 0) stream?.onRetry(attempt);
    try {
      const result = stream
        ? await streamModel({ choice, system, prompt, seed, signal, stream })
        : await callDraftModel({ choice, system, prompt, seed, signal });
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
      if (signal?.aborted) throw new DraftCanceledError();
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
