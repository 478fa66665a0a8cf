import { getEnv } from "@/lib/config";

/** Which text model the app uses, decided in one place from the environment (DESIGN §7). */
export type TextModelChoice = (
  | { provider: "openai"; model: string; apiKey: string; baseURL?: string }
  | { provider: "openai-compatible"; model: string; apiKey?: string; baseURL: string }
  | { provider: "local"; model: string }
) & {
  /** Whether texts also go to the provider's /moderations endpoint (OpenAI, or a compatible server with a key). */
  moderation: boolean;
  /** Upper bound for one model or moderation call. */
  timeoutMs: number;
};

export function chooseTextModel(): TextModelChoice {
  const env = getEnv();
  const model = env.OPENAI_MODEL;
  const apiKey = env.OPENAI_API_KEY;
  const baseURL = env.OPENAI_BASE_URL;
  const timeoutMs = () => env.AI_TIMEOUT_MS;
  if (baseURL) {
    return {
      provider: "openai-compatible",
      model,
      apiKey,
      baseURL,
      moderation: !!apiKey,
      timeoutMs: timeoutMs(),
    };
  }
  if (apiKey) return { provider: "openai", model, apiKey, moderation: true, timeoutMs: timeoutMs() };
  return { provider: "local", model: "brand-studio-local-1", moderation: false, timeoutMs: timeoutMs() };
}
