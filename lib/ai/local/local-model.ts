import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { readBriefBlock } from "../brief-block";
import { readExamplesBlock } from "../examples-block";
import { followExamples } from "./follow-examples";
import { LANGUAGE_BANKS } from "./language-banks";
import { writeInLanguage } from "./local-language-writer";
import { writePost } from "./post-writer";
import { readBrandPrompt } from "./read-brand-prompt";

/** About four characters a token, like the hosted models' English tokenisers. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function usage(input: string, output: string): LanguageModelV3Usage {
  const inputTokens = estimateTokens(input);
  const outputTokens = estimateTokens(output);
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

function promptText(options: LanguageModelV3CallOptions) {
  let system = "";
  let user = "";
  for (const message of options.prompt) {
    if (message.role === "system") system += `${message.content}\n\n`;
    if (message.role === "user") {
      for (const part of message.content) if (part.type === "text") user += `${part.text}\n`;
    }
  }
  return { system: system.trim(), user };
}

/**
 * The built-in `local` model: an AI SDK language model (specification v3) that writes posts with no
 * network. It reads the brand from the system prompt and the brief from the user prompt's brief block,
 * and it is deterministic for a given prompt and seed.
 */
export class LocalPostModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "local";
  readonly supportedUrls = {};

  constructor(
    readonly modelId: string,
    /** How doStream paces its output: characters per delta and the pause after each. */
    private readonly pace: { chunkChars: number; delayMs: number } = { chunkChars: 16, delayMs: 30 },
  ) {}

  private answer(options: LanguageModelV3CallOptions) {
    const { system, user } = promptText(options);
    const brief = readBriefBlock(user);
    if (!brief) throw new Error("The local model writes posts only: the prompt has no <brief> block.");
    const brand = readBrandPrompt(system);
    const seed = options.seed ?? 0;
    const language = (brief.language ?? "en").split("-")[0].toLowerCase();
    const bank = LANGUAGE_BANKS[language];
    // Never English text labelled as another language: generation refuses such a language before this.
    if (language !== "en" && !bank) throw new Error(`The local model cannot write "${brief.language}".`);
    const written = bank ? writeInLanguage({ bank, brand, brief, seed }) : writePost({ brand, brief, seed });
    // The channel's best posts, when the prompt has them: followed in what the local model can measure.
    const examples = readExamplesBlock(user);
    const post = examples
      ? followExamples({ post: written, examples, brief, brand, english: language === "en" })
      : written;
    const text = options.responseFormat?.type === "json" ? JSON.stringify(post) : post.caption;
    return { text, usage: usage(system + user, text) };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { text, usage } = this.answer(options);
    return {
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
      response: { modelId: this.modelId, timestamp: new Date() },
    };
  }

  /**
   * Streams the same answer a few characters at a time, paced like a model that writes as it thinks, so
   * the studio can show a draft arriving field by field. Stops when the caller aborts.
   */
  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { text, usage } = this.answer(options);
    const signal = options.abortSignal;
    const chunkChars = this.pace.chunkChars;
    const delayMs = this.pace.delayMs;
    const deltas = text.match(new RegExp(`[\\s\\S]{1,${chunkChars}}`, "g")) ?? [];
    const modelId = this.modelId;
    return {
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          const aborted = () => {
            if (!signal?.aborted) return false;
            controller.error(signal.reason ?? new DOMException("The stream was aborted.", "AbortError"));
            return true;
          };
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "response-metadata", modelId, timestamp: new Date() });
          controller.enqueue({ type: "text-start", id: "text" });
          for (const delta of deltas) {
            if (aborted()) return;
            controller.enqueue({ type: "text-delta", id: "text", delta });
            if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          }
          if (aborted()) return;
          controller.enqueue({ type: "text-end", id: "text" });
          controller.enqueue({ type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } });
          controller.close();
        },
      }),
    };
  }
}
