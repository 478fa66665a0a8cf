import type { Brand } from "@/db/schema";
import type { VideoMode } from "@/lib/contracts/video";
import { ApiError } from "@/lib/errors/api-error";

/** When a brand in training gives no end time, clients are asked to come back after this long. */
const UNKNOWN_TRAINING_SECONDS = 30;

/**
 * Whether the brand can have a video in this mode (DESIGN §4): a name and a tone for any video, and a
 * trained avatar for `avatar` mode. Training that is still under way is retryable, with the seconds left.
 */
export function assertBrandReadyForVideo({
  brand,
  mode,
  now,
  hostedProvider,
}: {
  brand: Brand;
  mode: VideoMode;
  now: Date;
  /** The hosted provider avatar videos go to, if any: the avatar must have been uploaded there. */
  hostedProvider?: string;
}) {
  const missing = [!brand.name.trim() && "name", !brand.tone.trim() && "tone"].filter(Boolean);
  if (missing.length) {
    throw new ApiError(
      "brand_not_ready",
      `Give the brand a ${missing.join(" and a ")} before making a video: the video speaks in the brand's voice.`,
      { details: { missing } },
    );
  }
  if (mode !== "avatar") return;
  if (brand.avatarStatus === "training") {
    const secondsLeft = brand.avatarTrainingEndsAt
      ? Math.max(1, Math.ceil((brand.avatarTrainingEndsAt.getTime() - now.getTime()) / 1000))
      : UNKNOWN_TRAINING_SECONDS;
    throw new ApiError(
      "avatar_training",
      `The brand's avatar is still training. Try again in about ${secondsLeft} seconds, or make a regular video now.`,
      { headers: { "Retry-After": String(secondsLeft) }, details: { retryAfterSeconds: secondsLeft } },
    );
  }
  if (brand.avatarStatus !== "ready" || !brand.avatarFramesKey) {
    throw new ApiError(
      "brand_not_ready",
      brand.avatarStatus === "failed"
        ? "The brand's avatar training failed. Upload a new avatar image, or make a regular video."
        : "This brand has no avatar yet. Upload one on the brand page, or make a regular video.",
      { details: { avatarStatus: brand.avatarStatus } },
    );
  }
  if (hostedProvider && brand.avatarProvider !== hostedProvider) {
    throw new ApiError(
      "brand_not_ready",
      "The brand's avatar was prepared for another video provider. Upload the avatar again, or make a regular video.",
      { details: { avatarStatus: brand.avatarStatus } },
    );
  }
}
