import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { generateText, Output } from "ai";
import { LocalPostModel } from "@/lib/ai/local/local-model";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { openTextModel } from "@/lib/ai/text-model";
import { aiTelemetry } from "@/lib/telemetry/tracing";
import { type DraftOutput, draftOutput } from "./draft-output";

export type DraftCall = { output: DraftOutput; inputTokens?: number; outputTokens?: number };

// Built once, for the whole and the streamed call: the AI SDK derives the JSON schema from the zod schema when the output spec is made.
export const DRAFT_OUTPUT = Output.object({ schema: draftOutput, name: "post_draft" });

/** The system prompt and the brief as a model's prompt, for a direct LanguageModelV3 call. */
export const draftPrompt = (system: string, prompt: string): LanguageModelV3Prompt => [
  { role: "system", content: system },
  { role: "user", content: [{ type: "text", text: prompt }] },
];

/** A whole answer's JSON text as a draft, checked with the output schema (throws when it is not one). */
export const parseDraftText = (text: string): DraftOutput => draftOutput.parse(JSON.parse(text));

/**
 * The built-in model is called directly through its LanguageModelV3 interface (`doGenerate` with a JSON
 * response format), and its answer checked with the same zod schema: the AI SDK's structured-output
 * machinery around it cost about ten times the model itself. Hosted models go through `generateText`.
 */
export async function callDraftModel({
  choice,
  system,
  prompt,
  seed,
  signal,
}: {
  choice: TextModelChoice;
  system: string;
  prompt: string;
  seed: number;
  signal?: AbortSignal;
}): Promise<DraftCall> {
  if (choice.provider === "local") {
    const model: LanguageModelV3 = new LocalPostModel(choice.model);
    const result = await model.doGenerate({
      prompt: draftPrompt(system, prompt),
      responseFormat: { type: "json", name: "post_draft" },
      seed,
      abortSignal: signal,
    });
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    return {
      output: parseDraftText(text),
      inputTokens: result.usage.inputTokens.total,
      outputTokens: result.usage.outputTokens.total,
    };
  }
  const result = await generateText({
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
  });
  return {
    output: result.output,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
  };
}
