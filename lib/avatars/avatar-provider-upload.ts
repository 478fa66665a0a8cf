import sharp from "sharp";
import { log } from "@/lib/log";
import { getHostedProvider } from "@/lib/video/providers";
import { ProviderError } from "@/lib/video/providers/provider-http";

export type ProviderUpload =
  | { status: "local" }
  | { status: "uploaded"; provider: string; ref: string }
  | { status: "refused"; reason: string };

const LABELS: Record<string, string> = { heygen: "HeyGen", did: "D-ID" };

/**
 * Uploads the brand's avatar photo to the hosted provider VIDEO_PROVIDER names (HeyGen talking photo,
 * D-ID image), which takes JPEG or PNG; a WebP upload is sent as PNG. A provider that refuses the photo
 * (4xx: no face found, too small) fails the training with its reason; a transient error throws, so the
 * training job is retried.
 */
export async function uploadAvatarToProvider(source: Buffer, imageKey: string): Promise<ProviderUpload> {
  const provider = await getHostedProvider();
  if (!provider) return { status: "local" };
  const isJpeg = /\.jpe?g$/.test(imageKey);
  const isPng = imageKey.endsWith(".png");
  const image = isJpeg || isPng ? source : await sharp(source).png().toBuffer();
  try {
    const ref = await provider.uploadAvatar(image, isJpeg ? "image/jpeg" : "image/png");
    log.info("avatar_provider_uploaded", { provider: provider.name });
    return { status: "uploaded", provider: provider.name, ref };
  } catch (error) {
    if (error instanceof ProviderError && !error.transient) {
      return {
        status: "refused",
        reason: `${LABELS[provider.name]} did not accept the photo: ${error.message}. Upload a clear photo of one face.`,
      };
    }
    throw error;
  }
}
