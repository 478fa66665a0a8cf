import { findTermsInHashtag } from "@/lib/posts/term-match";

const STOPWORDS = new Set(
  (
    "about above after again against all also and any are around because been before being below between both " +
    "but can could did does doing down during each few for from further get gets got had has have having here " +
    "how into its just let more most much new now off once only other our ours out over own same she " +
    "should since some such than that the their theirs them then there these they this those through too under " +
    "until very was way ways were what when where which while who whom why will with would you your yours " +
    "week today tomorrow tonight next last year years month months day days time times " +
    "one two three four five six seven eight nine ten first second third fourth fifth best top big small " +
    "great good really thing things lot lots people everyone everything something anything " +
    "make makes made take takes took pick picks picked come comes came see sees use uses try tries find " +
    "finds know knows want wants need needs like likes love loves keep keeps give gives " +
    "january february march april may june july august september october november december " +
    "monday tuesday wednesday thursday friday saturday sunday"
  ).split(" "),
);

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Candidate tags from the topic's words, best first: names (capitalised inside the topic) and compounds
 * (single-origin) before plain words. Short -ing and -ed forms ("opening", "roasted") rarely make tags.
 */
export function topicTags(topic: string) {
  const words = topic
    .split(/[^\p{L}\p{N}'’-]+/u)
    .map((word) => word.replace(/['’]s$/i, "").replace(/^[-'’]+|[-'’]+$/g, ""))
    .filter(Boolean);
  const scored = words.flatMap((word, position) => {
    const lower = word.toLowerCase();
    if (word.length < 3 || /^\p{N}+$/u.test(word) || STOPWORDS.has(lower)) return [];
    let score = 0;
    if (position > 0 && /^\p{Lu}/u.test(word)) score += 3;
    if (word.includes("-")) score += 2;
    if (word.length >= 6) score += 1;
    if (/(?:ing|ed)$/.test(lower)) score -= 2;
    return score < 0 ? [] : [{ tag: `#${word.split(/[-'’]/).map(pascal).join("")}`, score, position }];
  });
  return scored.sort((a, b) => b.score - a.score || a.position - b.position).map((item) => item.tag);
}

export function normalizeTag(tag: string) {
  const body = tag.replace(/[^\p{L}\p{N}_]/gu, "");
  return body ? `#${body}` : null;
}

/** Brand tags first (at most two), then the best topic tags. No banned words, no repeats ignoring case. */
export function chooseHashtags({
  topic,
  brandTags,
  bannedWords,
  max,
}: {
  topic: string;
  brandTags: string[];
  bannedWords: string[];
  max: number;
}) {
  const leading = brandTags.slice(0, Math.min(2, max - 1));
  const candidates = [...leading, ...topicTags(topic), ...brandTags.slice(leading.length)];
  const seen = new Set<string>();
  const chosen: string[] = [];
  for (const candidate of candidates) {
    const tag = normalizeTag(candidate);
    if (!tag || tag.length > 60 || seen.has(tag.toLowerCase())) continue;
    if (findTermsInHashtag(tag, bannedWords).length) continue;
    seen.add(tag.toLowerCase());
    chosen.push(tag);
    if (chosen.length === max) break;
  }
  return chosen;
}
