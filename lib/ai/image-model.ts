import "server-only";
import { createOpenAI } from "@ai-sdk/openai";
import { generateImage } from "ai";
import { getEnv } from "@/lib/config";
import { inAiSpan } from "@/lib/telemetry/tracing";
import { providerFetch } from "./provider-fetch";

/** True when media-plan images come from an image model (OpenAI, or a compatible server), not drawn locally. */
export function hasImageModel() {
  const env = getEnv();
  return !!(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
}

/** The OpenAI image sizes closest to each shape (gpt-image-1: square, landscape, portrait); cropped after. */
const SIZES = {
  "1:1": "1024x1024",
  "16:9": "1536x1024",
  "4:5": "1024x1536",
  "9:16": "1024x1536",
} as const;

/**
 * One image from the configured image model, through the AI SDK's generateImage (AI SDK 6's name for
 * experimental_generateImage): OpenAI's /v1/images/generations, or the same on OPENAI_BASE_URL.
 */
export async function generateModelImage(options: {
  prompt: string;
  aspectRatio: keyof typeof SIZES;
  signal?: AbortSignal;
}): Promise<{ bytes: Uint8Array; model: string }> {
  const env = getEnv();
  const provider = createOpenAI({
    apiKey: env.OPENAI_API_KEY ?? "unused",
    baseURL: env.OPENAI_BASE_URL,
    fetch: providerFetch,
  });
  const { image } = await inAiSpan("generateImage", env.IMAGE_MODEL, () =>
    generateImage({
      model: provider.image(env.IMAGE_MODEL),
      prompt: options.prompt,
      size: SIZES[options.aspectRatio],
      n: 1,
      maxRetries: 1,
      abortSignal: AbortSignal.any([
        AbortSignal.timeout(env.IMAGE_TIMEOUT_MS),
        ...(options.signal ? [options.signal] : []),
      ]),
    }),
  );
  return { bytes: image.uint8Array, model: env.IMAGE_MODEL };
}
