import "server-only";
import { buffer as readAll } from "node:stream/consumers";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { BrandFont } from "@/lib/contracts/brand-kit-rules";
import type { BrandPreviewFrame } from "@/lib/contracts/brands";
import type { VideoAspectRatio } from "@/lib/contracts/video-rules";
import { ApiError } from "@/lib/errors/api-error";
import { findFfmpeg } from "@/lib/ffmpeg/find-binary";
import { getMediaStorage } from "@/lib/media/storage";
import { renderPreviewFrame } from "@/lib/video/local/preview-frame";

/**
 * A frame of the brand's videos, for the brand page's live preview: the saved kit, with the colours and
 * font the page is trying out (not saved) in their place. Any member may look.
 */
export async function brandPreviewFrame(options: {
  principal: Principal;
  brandId: string;
  aspectRatio: VideoAspectRatio;
  primaryColor?: string;
  secondaryColor?: string;
  font?: BrandFont;
}): Promise<BrandPreviewFrame> {
  const { brand } = await requireBrandPermission({
    principal: options.principal,
    brandId: options.brandId,
    permission: "brand.read",
  });
  const ffmpeg = await findFfmpeg();
  if (!ffmpeg)
    throw new ApiError("service_unavailable", "The preview needs ffmpeg, which this server does not have.");
  const logo = brand.logoKey
    ? await getMediaStorage()
        .read(brand.logoKey)
        .then(readAll)
        .catch(() => null)
    : null;
  const frame = await renderPreviewFrame(
    {
      primaryColor: options.primaryColor ?? brand.primaryColor,
      secondaryColor: options.secondaryColor ?? brand.secondaryColor,
      font: options.font ?? brand.font,
      logo,
    },
    options.aspectRatio,
    ffmpeg,
  );
  return {
    imageUrl: `data:image/jpeg;base64,${frame.jpeg.toString("base64")}`,
    width: frame.width,
    height: frame.height,
    aspectRatio: options.aspectRatio,
  };
}
