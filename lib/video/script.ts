export const EMOJI = /\p{Extended_Pictographic}|\u{FE0F}|\u{200D}|[\u{1F3FB}-\u{1F3FF}]/gu;

/**
 * Sentences that only make sense in a feed: they point at things a viewer of the video cannot touch
 * (a carousel, a link, a bio, a comment thread, a save button). A video says none of them.
 */
const FEED_ONLY: RegExp[] = [
  /\bswip(e|es|ing)\b/i,
  /\bcarousel\b/i,
  /\b(slides?|photos?|pictures?|images?) (below|above)\b/i,
  /\bflip through\b/i,
  /\b(next|last|first) slide\b/i,
  /\b(double[- ]?)?tap\b/i,
  /\bclick\b/i,
  /\blink (in|on) (the |our |my )?(bio|profile|comments?|description|stories|story)\b/i,
  /\bbio link\b/i,
  /\b(in|via|from|at) (the |our |my )?bio\b/i,
  /\blink (below|above)\b/i,
  /\b(the|our|this|a) link\b/i,
  /\b(in|see|check) the (first |pinned )?comments?\b/i,
  /\b(save|bookmark|pin) (this|the) (post|reel|carousel|thread)\b/i,
  /\b(share|repost) (this|the) (post|reel|carousel)\b/i,
  /\b(follow|turn on notifications for) (us|@)\b/i,
  /\bDM\b/,
  /(^|\s)@[\w.]+/,
];

const URL = /\b(?:https?:\/\/|www\.)\S+/gi;
const HASHTAG = /(^|\s)#[\p{L}\p{N}_]+/gu;
/** Bullets and numbering a reader sees but a voice should not say: "→", "•", "-", "1.", "2/". */
const LIST_MARKER = /^\s*(?:[→•▪◦‣*·>-]+|\d{1,2}[.)/])\s+/u;

/** True when a sentence makes sense spoken in a video. */
export function isSpokenSentence(sentence: string) {
  if (!/\p{L}/u.test(sentence)) return false;
  return !FEED_ONLY.some((pattern) => pattern.test(sentence));
}

function cleanLine(line: string) {
  return line
    .replace(URL, " ")
    .replace(HASHTAG, " ")
    .replace(EMOJI, "")
    .replace(LIST_MARKER, "")
    .replace(/[ \t]+/g, " ")
    .replace(/\s+([.,!?;:])/g, "$1")
    .trim();
}

/** A line split after each sentence's end mark, keeping the marks. */
const sentencesOf = (line: string) => line.split(/(?<=[.!?…])\s+/).filter(Boolean);

/**
 * The words a video speaks and shows, from a post's caption. Hashtags, links, emoji and list markers are
 * for the feed, not for a voice or a frame (the video font has no emoji); so are sentences that point at
 * the feed ("Swipe through to see more", "Tap the link in our bio"). A line that has nothing left to say
 * goes; line breaks between what stays are kept.
 */
export function scriptFromCaption(caption: string) {
  return caption
    .split(/\n/)
    .map((line) => sentencesOf(cleanLine(line)).filter(isSpokenSentence).join(" ").trim())
    .filter((line) => /\p{L}/u.test(line))
    .join("\n")
    .replace(/[ \t]+/g, " ")
    .trim();
}
