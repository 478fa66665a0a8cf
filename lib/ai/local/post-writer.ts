import { findTerms, removeTerms } from "@/lib/text/term-match";
import type { PostBrief } from "../brief-block";
import { copyStyle } from "./copy-style";
import { chooseHashtags } from "./hashtags";
import { type PlannedMedia, planMedia } from "./media-plan";
import {
  AUDIENCE_LINES,
  BULLET_INTROS,
  BULLETS,
  CARE_LINES,
  callsToAction,
  GOAL_EMOJI,
  hooksFor,
  MEDIA_LINES,
  MOVE_LINES,
  numbersLine,
  VALUE_LINES,
  type WritingContext,
} from "./phrases";
import type { BrandBrief } from "./read-brand-prompt";
import { capitalize, decapitalize, topicForms } from "./topic";
import { variants } from "./variant";

export type WrittenPost = { caption: string; hashtags: string[]; mediaPlan: PlannedMedia };

/** A paragraph and how much the post needs it: the lowest go first when the caption is too long. */
type Paragraph = { text: string; keep: number };

const joinList = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/** "Busy professionals…" reads as "busy professionals…" mid-sentence; "CTOs…" and "iOS…" keep their case. */
const midSentence = (text: string) =>
  /^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;

const STRUCTURES = {
  linkedin: ["paragraphs", "bullets", "compact"],
  instagram: ["paragraphs", "compact"],
  telegram: ["paragraphs", "compact"],
} as const;

/**
 * The built-in copywriter. It writes from the brief and what it reads of the brand: a first line that
 * names the topic, the brand's audience and values, the do-list moves it knows, a call to action that
 * fits the goal, a layout for the channel, a media plan and hashtags. It never uses a banned word.
 */
export function writePost({
  brand,
  brief,
  seed,
}: {
  brand: BrandBrief;
  brief: PostBrief;
  seed: number;
}): WrittenPost {
  const style = copyStyle(brand, brief.channel);
  // A banned word in the brief's own topic is dropped before any line is built around it.
  const topic = topicForms(removeTerms(brief.topic, brand.bannedWords).replace(/\s+/g, " "));
  const hookTopic = topic.text.length <= 110 ? topic.text : topic.short;
  const audience = brand.audience.trim().replace(/[.!]+$/, "");
  const ctx: WritingContext = {
    brand,
    brief,
    style,
    topic,
    hook: { lead: capitalize(hookTopic), mid: decapitalize(hookTopic) },
    link: brief.assets.find((asset) => asset.type === "link")?.url,
    values: brand.values.length ? joinList(brand.values.slice(0, 4).map(midSentence)) : undefined,
    audience: audience && audience.length <= 160 ? midSentence(audience) : undefined,
  };
  const choose = variants(JSON.stringify([brand.name, brief.channel, brief.goal, topic.text]), seed);

  const allowed = (text: string) =>
    findTerms(text, brand.bannedWords).length === 0 && (style.questions || !/\?(\s|$)/.test(text));
  // The options that may be used are rotated (not all options, then the first allowed), so each seed
  // lands on a different usable line.
  const first = (slot: string, options: string[]) => choose.rotate(slot, options.filter(allowed))[0];

  const mediaPlan = planMedia(ctx, choose);
  const emoji = style.emoji && brief.channel !== "linkedin" ? `${GOAL_EMOJI[brief.goal]} ` : "";
  const hooks = hooksFor(brief.goal, brief.channel, topic);
  const hook =
    first(
      "hook",
      hooks.map((option) => option.write(ctx)),
    ) ?? `${topic.lead}.`;
  const audienceLine = ctx.audience
    ? first(
        "audience",
        AUDIENCE_LINES.map((phrase) => phrase(ctx)),
      )
    : undefined;
  // "Use concrete numbers" on the do-list: the values line becomes a counted one.
  const counted = style.moves.numbers ? numbersLine(ctx) : undefined;
  const valueLine =
    counted && allowed(counted)
      ? counted
      : ctx.values
        ? first(
            "values",
            VALUE_LINES.map((phrase) => phrase(ctx)),
          )
        : undefined;
  const careLine = first("care", CARE_LINES[style.register]);
  const moves = choose
    .rotate(
      "moves",
      (Object.keys(MOVE_LINES) as (keyof typeof MOVE_LINES)[]).filter((move) => style.moves[move]),
    )
    .map((move) => MOVE_LINES[move])
    .filter(allowed);
  const mediaLine =
    mediaPlan.format === "carousel" || mediaPlan.format === "video"
      ? MEDIA_LINES[mediaPlan.format][brief.channel]
      : undefined;
  const cta = first("cta", callsToAction(ctx));

  const structure = style.concise ? "compact" : choose.pick("structure", STRUCTURES[brief.channel]);
  const p = (text: string | undefined, keep: number): Paragraph[] => (text ? [{ text, keep }] : []);
  const together = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ") || undefined;
  let paragraphs: Paragraph[];

  if (brief.channel === "linkedin") {
    const bulletValues = brand.values.slice(0, 4).filter(allowed);
    if (structure === "bullets" && bulletValues.length >= 2) {
      const bullets = bulletValues.map(
        (value, index) => `→ ${BULLETS[index % BULLETS.length](midSentence(value))}`,
      );
      paragraphs = [
        ...p(hook, 9),
        ...p(audienceLine, 4),
        ...p(
          [
            counted
              ? `${bullets.length} things you can count on:`
              : choose.pick("bullet-intro", BULLET_INTROS),
            ...bullets,
          ].join("\n"),
          6,
        ),
        ...p(moves[0], 3),
        ...p(mediaLine, 2),
        ...p(cta, 8),
      ];
    } else if (structure === "compact") {
      paragraphs = [
        ...p(hook, 9),
        ...p(valueLine ?? careLine, 6),
        ...p(moves[0], 3),
        ...p(together(mediaLine, cta), 8),
      ];
    } else {
      paragraphs = [
        ...p(hook, 9),
        ...p(audienceLine, 4),
        ...p(careLine, 5),
        ...p(valueLine, 6),
        ...p(moves[0], 3),
        ...p(mediaLine, 2),
        ...p(cta, 8),
      ];
    }
  } else if (brief.channel === "instagram") {
    paragraphs =
      structure === "compact"
        ? [
            ...p(`${emoji}${hook}`, 9),
            ...p(careLine, 5),
            ...p(valueLine, 6),
            ...p(together(mediaLine, cta), 8),
          ]
        : [
            ...p(`${emoji}${hook}`, 9),
            ...p(audienceLine, 4),
            ...p(valueLine, 6),
            ...p(moves[0], 3),
            ...p(mediaLine, 2),
            ...p(cta, 8),
          ];
  } else {
    // Telegram: the hook stands alone as the headline, then one short paragraph and the call to action.
    paragraphs = [
      ...p(`${emoji}${hook}`, 9),
      ...p(
        structure === "compact"
          ? together(valueLine, moves[0])
          : together(audienceLine, counted && allowed(counted) ? counted : careLine),
        6,
      ),
      ...p(together(mediaLine, cta), 8),
    ];
  }

  const limit = mediaPlan.items.length ? brief.captionLimitWithMedia : brief.captionLimit;
  const render = () => paragraphs.map((paragraph) => paragraph.text).join("\n\n");
  while (render().length > limit && paragraphs.length > 2) {
    const weakest = paragraphs.reduce((low, paragraph) => (paragraph.keep < low.keep ? paragraph : low));
    paragraphs = paragraphs.filter((paragraph) => paragraph !== weakest);
  }

  const scrub = (text: string) => removeTerms(text, brand.bannedWords).trim();
  return {
    caption: scrub(render()),
    hashtags: chooseHashtags({
      topic: topic.text,
      brandTags: brand.hashtags,
      bannedWords: brand.bannedWords,
      max: Math.min(style.maxHashtags, brief.maxHashtags),
    }),
    mediaPlan: {
      format: mediaPlan.format,
      items: mediaPlan.items.map((item) => ({
        ...item,
        description: scrub(item.description) || "Image for the post.",
        altText: scrub(item.altText) || "Image for the post.",
        overlayText: item.overlayText ? scrub(item.overlayText) || null : null,
      })),
    },
  };
}
