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

const DEFAULT_TIMEOUT_MS = 20_000;

function timeoutMs() {
  const value = Number(process.env.AI_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

export function chooseTextModel(): TextModelChoice {
  const model = process.env.OPENAI_MODEL || "gpt-4o-mini";
  const apiKey = process.env.OPENAI_API_KEY || undefined;
  const baseURL = process.env.OPENAI_BASE_URL || undefined;
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
