import { request } from "undici";
import { z } from "zod";
import { inAiSpan } from "@/lib/telemetry/tracing";
import type { TextModelChoice } from "./model-choice";

const OPENAI_BASE_URL = "https://api.openai.com/v1";
const MODERATION_MODEL = "omni-moderation-latest";

const moderationResponse = z.object({
  results: z.array(
    z.object({ flagged: z.boolean(), categories: z.record(z.string(), z.boolean().nullable()) }),
  ),
});

export type ProviderModeration = { flagged: boolean; categories: string[] };

export class ModerationUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModerationUnavailableError";
  }
}

/**
 * Sends texts to the provider's /moderations endpoint. Answers null when the provider has none: the local
 * model, a compatible server without a key, or one that answers 404 (most self-hosted servers).
 */
export async function moderateWithProvider(
  choice: TextModelChoice,
  texts: string[],
): Promise<ProviderModeration | null> {
  if (!choice.moderation || choice.provider === "local") return null;
  return inAiSpan("moderate", MODERATION_MODEL, () => moderate(choice, texts));
}

/**
 * One POST with undici's `request`, not `fetch`: every draft is moderated twice (its brief and its output), and
 * fetch's Request, Response and web streams cost a busy server's one thread four times as much per call.
 */
async function moderate(
  choice: Exclude<TextModelChoice, { provider: "local" }>,
  texts: string[],
): Promise<ProviderModeration | null> {
  const baseURL = (choice.baseURL ?? OPENAI_BASE_URL).replace(/\/+$/, "");
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(`${baseURL}/moderations`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${choice.apiKey}` },
      body: JSON.stringify({ model: MODERATION_MODEL, input: texts }),
      signal: AbortSignal.timeout(choice.timeoutMs),
    });
  } catch (error) {
    throw new ModerationUnavailableError("The moderation service did not answer.", { cause: error });
  }
  const { statusCode, body } = response;
  if (statusCode < 200 || statusCode > 299) {
    // The connection goes back to the pool only once the answer is read.
    await body.dump().catch(() => {});
    if (statusCode === 404 && choice.provider === "openai-compatible") return null;
    throw new ModerationUnavailableError(`The moderation service answered ${statusCode}.`);
  }
  const parsed = moderationResponse.safeParse(await body.json().catch(() => null));
  if (!parsed.success) throw new ModerationUnavailableError("The moderation service answered nonsense.");
  const categories = new Set<string>();
  for (const result of parsed.data.results) {
    for (const [category, flagged] of Object.entries(result.categories))
      if (flagged) categories.add(category);
  }
  return {
    flagged: parsed.data.results.some((result) => result.flagged),
    categories: [...categories],
  };
}
