/** Which text model the app uses, decided in one place from the environment (DESIGN §7). */
export type TextModelChoice =
  | { provider: "openai"; model: string; apiKey: string; baseURL?: string }
  | { provider: "openai-compatible"; model: string; apiKey?: string; baseURL: string }
  | { provider: "local"; model: string };

export function chooseTextModel(): TextModelChoice {
  const model = process.env.OPENAI_MODEL || "gpt-4o-mini";
  const apiKey = process.env.OPENAI_API_KEY || undefined;
  const baseURL = process.env.OPENAI_BASE_URL || undefined;
  if (baseURL) return { provider: "openai-compatible", model, apiKey, baseURL };
  if (apiKey) return { provider: "openai", model, apiKey };
  return { provider: "local", model: "brand-studio-local-1" };
}
