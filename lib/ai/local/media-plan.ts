import type { ASPECT_RATIOS, Channel, Goal, MEDIA_FORMATS } from "@/lib/contracts/posts";
import type { WritingContext } from "./phrases";
import { shortCallToAction } from "./phrases";
import type { Variants } from "./variant";

type Format = (typeof MEDIA_FORMATS)[number];
type AspectRatio = (typeof ASPECT_RATIOS)[number];

export type PlannedItem = {
  type: "image" | "video";
  description: string;
  altText: string;
  aspectRatio: AspectRatio;
  overlayText: string | null;
};

export type PlannedMedia = { format: Format; items: PlannedItem[] };

/** Which formats suit a channel and goal, best first; the seed picks among them. */
export const FORMATS: Record<Channel, Record<Goal, Format[]>> = {
  instagram: {
    awareness: ["carousel", "video", "single_image"],
    engagement: ["carousel", "single_image", "video"],
    traffic: ["single_image", "carousel"],
    leads: ["single_image", "carousel"],
    sales: ["carousel", "single_image"],
    announcement: ["single_image", "video"],
  },
  linkedin: {
    awareness: ["carousel", "single_image"],
    engagement: ["single_image", "carousel"],
    traffic: ["single_image", "text_only"],
    leads: ["single_image", "carousel"],
    sales: ["single_image", "carousel"],
    announcement: ["single_image", "video"],
  },
  telegram: {
    awareness: ["single_image", "text_only"],
    engagement: ["text_only", "single_image"],
    traffic: ["text_only", "single_image"],
    leads: ["single_image", "text_only"],
    sales: ["single_image", "text_only"],
    announcement: ["single_image", "text_only"],
  },
};

export const IMAGE_RATIO: Record<Channel, AspectRatio> = {
  instagram: "4:5",
  linkedin: "1:1",
  telegram: "16:9",
};
export const VIDEO_RATIO: Record<Channel, AspectRatio> = {
  instagram: "9:16",
  linkedin: "16:9",
  telegram: "16:9",
};

const sentence = (text: string) => {
  const trimmed = text.trim().replace(/\s+/g, " ");
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/** The user's own images and videos come first; a plan is only invented when there are none. */
function fromAssets(ctx: WritingContext): PlannedMedia | null {
  const { brief, topic } = ctx;
  const media = brief.assets.filter((asset) => asset.type !== "link").slice(0, 10);
  if (!media.length) return null;
  const video = media.find((asset) => asset.type === "video");
  const chosen = video ? [video] : media;
  const items = chosen.map((asset): PlannedItem => {
    const type = asset.type === "video" ? "video" : "image";
    const described = asset.description?.trim();
    return {
      type,
      description: described ? sentence(described) : `Your ${type} from ${new URL(asset.url).hostname}.`,
      altText: described
        ? sentence(described)
        : `${type === "video" ? "Video" : "Photo"} for "${topic.short}".`,
      aspectRatio: type === "video" ? VIDEO_RATIO[brief.channel] : IMAGE_RATIO[brief.channel],
      overlayText: null,
    };
  });
  return { format: items.length > 1 ? "carousel" : formatOf(items[0]), items };
}

const formatOf = (item: PlannedItem): Format => (item.type === "video" ? "video" : "single_image");

function invented(ctx: WritingContext, format: Format): PlannedMedia {
  const { brief, brand, topic, values } = ctx;
  const ratio = IMAGE_RATIO[brief.channel];
  const headline = topic.title;
  const cover: PlannedItem = {
    type: "image",
    description: `Photo for "${topic.short}": the real thing in a real setting, natural light, with ${brand.name}'s colours and the headline set on it.`,
    altText: `Photo with the headline "${headline}" in ${brand.name}'s colours.`,
    aspectRatio: ratio,
    overlayText: headline,
  };
  if (format === "text_only") return { format, items: [] };
  if (format === "single_image") return { format, items: [cover] };
  if (format === "video") {
    const seconds = brief.channel === "instagram" ? 15 : 30;
    return {
      format,
      items: [
        {
          type: "video",
          description: `${seconds}-second clip: opens on "${headline}", three quick shots of the subject, ends on ${brand.name}'s logo and "${shortCallToAction(ctx)}".`,
          altText: `Short video about "${topic.short}", ending with the ${brand.name} logo.`,
          aspectRatio: VIDEO_RATIO[brief.channel],
          overlayText: headline,
        },
      ],
    };
  }
  const closing = shortCallToAction(ctx);
  const slides: PlannedItem[] = [
    { ...cover, description: `Cover slide: "${headline}" set large over a cropped photo of the subject.` },
    {
      type: "image",
      description: "Close-up photo of the detail that makes it special, natural light, no text.",
      altText: `Close-up photo of the detail behind "${topic.short}".`,
      aspectRatio: ratio,
      overlayText: null,
    },
  ];
  if (values) {
    slides.push({
      type: "image",
      description: `Slide on ${brand.name}'s colours listing what the brand stands for: ${values}.`,
      altText: `Slide listing ${values}.`,
      aspectRatio: ratio,
      overlayText: brand.values.slice(0, 4).join(" · ").slice(0, 120),
    });
  }
  slides.push({
    type: "image",
    description: `Closing slide with "${closing}" and ${brand.name}'s logo.`,
    altText: `Closing slide reading "${closing}" with the ${brand.name} logo.`,
    aspectRatio: ratio,
    overlayText: closing,
  });
  return { format, items: slides };
}

export function planMedia(ctx: WritingContext, variants: Variants): PlannedMedia {
  return fromAssets(ctx) ?? invented(ctx, variants.pick("media", FORMATS[ctx.brief.channel][ctx.brief.goal]));
}
