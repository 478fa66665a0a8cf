import type { Channel } from "@/lib/contracts/posts";
import type { BrandBrief } from "./read-brand-prompt";

/** How the brand's tone, do list and don't list shape the copy. */
export type CopyStyle = {
  register: "casual" | "formal";
  exclaim: boolean;
  emoji: boolean;
  questions: boolean;
  maxHashtags: number;
  /** Don't-list: no hype ("Big news", exclamation marks). */
  noHype: boolean;
  /** Do-list: keep it short (the compact layout on every channel). */
  concise: boolean;
  /** Do-list items the writer knows how to act on. */
  moves: { invite: boolean; ask: boolean; story: boolean; personal: boolean; numbers: boolean };
};

const TONES = {
  playful: /playful|fun\b|witty|cheeky|quirky|humou?r|light-?hearted|irreverent/i,
  warm: /warm|friendly|welcoming|caring|kind|approachable|inviting/i,
  upbeat: /upbeat|energetic|enthusiastic|excit|bold|lively|vibrant|passionate/i,
  formal: /professional|formal|authoritative|expert|corporate|serious|precise|technical|polished/i,
};

const mentions = (items: string[], pattern: RegExp) => items.some((item) => pattern.test(item));

export function copyStyle(brand: BrandBrief, channel: Channel): CopyStyle {
  const tone = `${brand.tone} ${brand.voice}`;
  const is = (name: keyof typeof TONES) => TONES[name].test(tone);
  const formal = is("formal") && !is("playful");
  const dont = brand.dontList;
  const wantsEmoji = mentions(brand.doList, /emoji/i);
  const noEmoji = mentions(dont, /emoji/i);
  const emojiByTone = channel !== "linkedin" && !formal && (is("playful") || is("upbeat") || is("warm"));
  const noHype = mentions(dont, /hype|superlative|buzzword|overstat|exaggerat|over-?promis/i);
  return {
    register: formal ? "formal" : "casual",
    exclaim: (is("playful") || is("upbeat")) && !formal && !noHype && !mentions(dont, /exclamation/i),
    emoji: !noEmoji && (wantsEmoji || emojiByTone),
    questions: !mentions(dont, /\bquestions?\b/i),
    maxHashtags: mentions(dont, /hashtag/i) ? 3 : 5,
    noHype,
    concise: mentions(brand.doList, /\b(short|brief|concise|to the point|succinct)\b/i),
    moves: {
      invite: mentions(brand.doList, /invit|welcome|visit|come (in|by|along)/i),
      ask: mentions(brand.doList, /\bask|question|conversation|engage|feedback/i),
      story: mentions(brand.doList, /story|stories|behind the scenes|origin|journey|history/i),
      personal: mentions(brand.doList, /personal|first person|human|team/i),
      numbers: mentions(brand.doList, /number|figure|data|statistic|\bstats?\b|concrete|specific|quantif/i),
    },
  };
}
