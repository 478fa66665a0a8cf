import { findTerms, findTermsInHashtag, removeTerms } from "@/lib/text/term-match";
import type { PostBrief } from "../brief-block";
import { copyStyle } from "./copy-style";
import { normalizeTag } from "./hashtags";
import type { LanguageBank, LineArgs } from "./language-banks";
import { FORMATS, IMAGE_RATIO, type PlannedItem, type PlannedMedia, VIDEO_RATIO } from "./media-plan";
import { GOAL_EMOJI } from "./phrases";
import type { WrittenPost } from "./post-writer";
import type { BrandBrief } from "./read-brand-prompt";
import { capitalize, shorten } from "./topic";
import { variants } from "./variant";

const joinList = (items: string[], and: string) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;

/**
 * The built-in copywriter in a language besides English, from that language's own phrase bank: a first
 * line that names the topic, the audience and values, a line of care, a call to action for the goal and the
 * channel, hashtags in the language, and a media plan whose alt text is in the language. It never uses a
 * banned word, and follows the same tone and don't-list rules as the English writer (copy-style.ts).
 */
export function writeInLanguage({
  bank,
  brand,
  brief,
  seed,
}: {
  bank: LanguageBank;
  brand: BrandBrief;
  brief: PostBrief;
  seed: number;
}): WrittenPost {
  const style = copyStyle(brand, brief.channel);
  const topic = capitalize(
    removeTerms(brief.topic, brand.bannedWords)
      .replace(/\s+/g, " ")
      .trim()
      .replace(/[\s.!?;:,…]+$/, ""),
  );
  const short = shorten(topic, 80);
  const title = shorten(topic, 60);
  const audience = brand.audience.trim().replace(/[.!]+$/, "");
  const args: LineArgs = {
    topic: topic.length <= 110 ? topic : short,
    brand: brand.name,
    values: brand.values.length ? joinList(brand.values.slice(0, 4), bank.and) : undefined,
    audience: audience && audience.length <= 160 ? audience : undefined,
    link: brief.assets.find((asset) => asset.type === "link")?.url,
  };
  const choose = variants(JSON.stringify([brand.name, brief.channel, brief.goal, topic, "lang"]), seed);
  const allowed = (text: string) =>
    findTerms(text, brand.bannedWords).length === 0 && (style.questions || !/[?？](\s|$)/.test(text));
  const first = (slot: string, options: string[]) => choose.rotate(slot, options.filter(allowed))[0];

  const instagram = brief.channel === "instagram";
  const cta = bank.cta[brief.goal];
  const ctaOptions = instagram ? cta.instagram : args.link ? cta.link.map((line) => line(args)) : cta.plain;
  const media = planMedia({
    bank,
    brief,
    args,
    title,
    short,
    format: choose.pick("media", FORMATS[brief.channel][brief.goal]),
    goal: brief.goal,
  });

  const emoji = style.emoji && brief.channel !== "linkedin" ? `${GOAL_EMOJI[brief.goal]} ` : "";
  const hook = first(
    "hook",
    bank.hooks[brief.goal].map((line) => line(args)),
  );
  const lines: { text: string | undefined; keep: number }[] = [
    { text: hook ? `${emoji}${hook}` : `${topic}.`, keep: 9 },
    {
      text: args.audience
        ? first(
            "audience",
            bank.audience.map((line) => line(args)),
          )
        : undefined,
      keep: 4,
    },
    {
      text: args.values
        ? first(
            "values",
            bank.values.map((line) => line(args)),
          )
        : undefined,
      keep: 6,
    },
    { text: first("care", bank.care), keep: 5 },
    {
      text: media.format === "carousel" || media.format === "video" ? bank.media[media.format] : undefined,
      keep: 2,
    },
    { text: first("cta", ctaOptions.length ? ctaOptions : cta.plain), keep: 8 },
  ];
  let paragraphs = lines.filter((line): line is { text: string; keep: number } => !!line.text);
  // Short layouts: the do-list asks for brevity, or Telegram's one short paragraph.
  if (style.concise || brief.channel === "telegram") paragraphs = paragraphs.filter((line) => line.keep >= 5);
  const limit = media.items.length ? brief.captionLimitWithMedia : brief.captionLimit;
  const render = () => paragraphs.map((paragraph) => paragraph.text).join("\n\n");
  while (render().length > limit && paragraphs.length > 2) {
    const weakest = paragraphs.reduce((low, paragraph) => (paragraph.keep < low.keep ? paragraph : low));
    paragraphs = paragraphs.filter((paragraph) => paragraph !== weakest);
  }

  const max = Math.min(style.maxHashtags, brief.maxHashtags);
  const seen = new Set<string>();
  const hashtags: string[] = [];
  for (const candidate of [
    ...brand.hashtags.slice(0, 2),
    ...bank.tags[brief.goal],
    ...brand.hashtags.slice(2),
  ]) {
    const tag = normalizeTag(candidate);
    if (!tag || seen.has(tag.toLowerCase()) || findTermsInHashtag(tag, brand.bannedWords).length) continue;
    seen.add(tag.toLowerCase());
    hashtags.push(tag);
    if (hashtags.length === max) break;
  }

  const scrub = (text: string) => removeTerms(text, brand.bannedWords).trim();
  return {
    caption: scrub(render()),
    hashtags,
    mediaPlan: {
      format: media.format,
      items: media.items.map((item) => ({
        ...item,
        description: scrub(item.description) || scrub(bank.alt.photo({ ...args, topic: title })),
        altText: scrub(item.altText) || scrub(bank.alt.photo({ ...args, topic: title })),
        overlayText: item.overlayText ? scrub(item.overlayText) || null : null,
      })),
    },
  };
}

function planMedia({
  bank,
  brief,
  args,
  title,
  short,
  format,
  goal,
}: {
  bank: LanguageBank;
  brief: PostBrief;
  args: LineArgs;
  title: string;
  short: string;
  format: PlannedMedia["format"];
  goal: PostBrief["goal"];
}): PlannedMedia {
  const ratio = IMAGE_RATIO[brief.channel];
  const own = brief.assets.filter((asset) => asset.type !== "link").slice(0, 10);
  if (own.length) {
    const video = own.find((asset) => asset.type === "video");
    const items = (video ? [video] : own).map((asset): PlannedItem => {
      const type = asset.type === "video" ? "video" : "image";
      const text =
        asset.description?.trim() ||
        (type === "video" ? bank.alt.video : bank.alt.photo)({ ...args, topic: short });
      return {
        type,
        description: text,
        altText: text,
        aspectRatio: type === "video" ? VIDEO_RATIO[brief.channel] : ratio,
        overlayText: null,
      };
    });
    return {
      format: items.length > 1 ? "carousel" : items[0].type === "video" ? "video" : "single_image",
      items,
    };
  }
  const photo = bank.alt.photo({ ...args, topic: title });
  const cover: PlannedItem = {
    type: "image",
    description: photo,
    altText: photo,
    aspectRatio: ratio,
    overlayText: title,
  };
  if (format === "text_only") return { format, items: [] };
  if (format === "single_image") return { format, items: [cover] };
  if (format === "video") {
    const text = bank.alt.video({ ...args, topic: short });
    return {
      format,
      items: [
        {
          type: "video",
          description: text,
          altText: text,
          aspectRatio: VIDEO_RATIO[brief.channel],
          overlayText: title,
        },
      ],
    };
  }
  const closeUp = bank.alt.closeUp({ ...args, topic: short });
  const closing = bank.alt.closing(bank.shortCta[goal], args.brand);
  return {
    format,
    items: [
      cover,
      { type: "image", description: closeUp, altText: closeUp, aspectRatio: ratio, overlayText: null },
      {
        type: "image",
        description: closing,
        altText: closing,
        aspectRatio: ratio,
        overlayText: bank.shortCta[goal],
      },
    ],
  };
}
