import type { LanguageModelV3Usage } from "@ai-sdk/provider";
import type { DeepPartial } from "ai";
import { Allow, parse as parsePartialJson } from "partial-json";
import type { PostBrief } from "@/lib/ai/brief-block";
import type { DraftExamples } from "@/lib/ai/examples-block";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { ModerationUnavailableError } from "@/lib/ai/moderation";
import { openTextModel } from "@/lib/ai/text-model";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { inAiSpan } from "@/lib/telemetry/tracing";
import { briefPrompt } from "./brief-prompt";
import {
  callDraftModel,
  DRAFT_OUTPUT,
  type DraftCall,
  draftPrompt,
  parseDraftText,
} from "./call-draft-model";
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

/**
 * Streaming callbacks: the draft's text so far as the model writes it (JSON, cut anywhere; `partialDraft`
 * reads it), and a new attempt starting over.
 */
export type DraftStreamHandlers = {
  onText: (text: string) => void;
  onRetry: (attempt: number) => void;
};

/** The caller went away (Cancel in the studio): stop, retry nothing, save nothing. */
export class DraftCanceledError extends Error {
  constructor() {
    super("The draft was canceled.");
    this.name = "DraftCanceledError";
  }
}

/** What a draft's JSON text cut anywhere already says (partial strings and arrays kept), or null before any. */
export function partialDraft(text: string): DeepPartial<DraftOutput> | null {
  try {
    const value = parsePartialJson(text, Allow.ALL);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * One streamed model call for a draft: the model's own stream (LanguageModelV3 `doStream`), read as it
 * comes. Not streamText: its pipeline of web streams, with a partial-JSON parse and compare per token, cost
 * the event loop about 0.65 ms a token, and fifty drafts at once queued each other's first words behind it.
 * Here a token costs the provider's SSE parsing and one string append; the caller parses the text only when
 * it sends a partial (at most every 50 ms), and the whole answer is checked once, like the built-in model's.
 */
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
}): Promise<DraftCall> {
  const timeout = AbortSignal.timeout(choice.timeoutMs);
  const model = openTextModel(choice);
  return inAiSpan("streamText", choice.model, async () => {
    const { stream: parts } = await model.doStream({
      prompt: draftPrompt(system, prompt),
      responseFormat: await DRAFT_OUTPUT.responseFormat,
      seed,
      abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    let text = "";
    let usage: LanguageModelV3Usage | undefined;
    const reader = parts.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        const part = next.value;
        if (part.type === "text-delta") {
          text += part.delta;
          stream.onText(text);
        } else if (part.type === "error") throw part.error;
        else if (part.type === "finish") usage = part.usage;
      }
    } catch (error) {
      // The model's error part, or the call aborted: the answer's connection is let go either way.
      await reader.cancel().catch(() => {});
      throw error;
    }
    return {
      output: parseDraftText(text),
      inputTokens: usage?.inputTokens.total,
      outputTokens: usage?.outputTokens.total,
    };
  });
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
