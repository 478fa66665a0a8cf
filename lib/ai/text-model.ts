import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { LocalPostModel } from "./local/local-model";
import type { TextModelChoice } from "./model-choice";
import { providerFetch } from "./provider-fetch";

/**
 * The AI SDK model for a choice. Hosted models speak Chat Completions, which OpenAI and the
 * OpenAI-compatible servers (Ollama, vLLM, LM Studio) all understand.
 */
export function openTextModel(choice: TextModelChoice): LanguageModelV3 {
  switch (choice.provider) {
    case "local":
      return new LocalPostModel(choice.model);
    case "openai":
      return createOpenAI({ apiKey: choice.apiKey, fetch: providerFetch }).chat(choice.model);
    case "openai-compatible":
      // Local servers ignore the key, but the SDK insists on one.
      return createOpenAI({
        baseURL: choice.baseURL,
        apiKey: choice.apiKey ?? "unused",
        fetch: providerFetch,
      }).chat(choice.model);
  }
}
