import { findTermsInHashtag } from "@/lib/text/term-match";

const STOPWORDS = new Set(
  (
    "about above after again against all also and any are around because been before being below between both " +
    "but can could did does doing down during each few for from further get gets got had has have having here " +
    "how into its just let more most much new now off once only other our ours out over own same she " +
    "should since some such than that the their theirs them then there these they this those through too under " +
    "until very was way ways were what when where which while who whom why will with would you your yours " +
    "every each per via vs versus " +
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

/** Words that may lead a phrase but never end one or stand alone: #SmallBatches, never #Small or #FreshNew. */
const MODIFIERS = new Set(
  "small big best top great good fresh late early better bigger first last local daily weekly".split(" "),
);
/** Nouns of time are stopwords alone but fine at the end of a phrase: #LateNight, #SummerWeekend. */
const TIME_NOUNS = new Set("night nights week weekend morning mornings day days month year".split(" "));

type Word = { text: string; lower: string; name: boolean; parts: number; position: number };

/** The topic's words, with null wherever a phrase must break: punctuation, a stopword, a number. */
function wordsOf(topic: string): (Word | null)[] {
  const out: (Word | null)[] = [];
  for (const token of topic.split(/(\s+|[,.;:!?()"“”—–/&+]+)/u)) {
    if (!token.trim()) continue;
    const text = token.replace(/['’]s$/i, "").replace(/^[-'’]+|[-'’]+$/g, "");
    const lower = text.toLowerCase();
    const keep =
      /^[\p{L}][\p{L}\p{N}'’-]*$/u.test(text) &&
      text.length >= 3 &&
      (!STOPWORDS.has(lower) || MODIFIERS.has(lower) || TIME_NOUNS.has(lower));
    out.push(
      keep
        ? {
            text,
            lower,
            name: out.length > 0 && /^\p{Lu}/u.test(text) && !TIME_NOUNS.has(lower),
            parts: text.split(/[-'’]/).filter(Boolean).length,
            position: out.length,
          }
        : null,
    );
  }
  return out;
}

const camel = (words: Word[]) =>
  `#${words
    .flatMap((word) => word.text.split(/[-'’]/))
    .filter(Boolean)
    .map(pascal)
    .join("")}`;

/** A word that cannot end a phrase: a modifier, or an -ing/-ed/-ly form ("roasted", "brewing"). */
const cannotEnd = (word: Word) => MODIFIERS.has(word.lower) || /(?:ing|ed|ly)$/.test(word.lower);
const cannotStandAlone = (word: Word) =>
  (!word.name && word.parts < 2) || MODIFIERS.has(word.lower) || TIME_NOUNS.has(word.lower);

/**
 * Candidate tags from the topic, best first. A tag is a phrase: two or three neighbouring words of the
 * topic with no stopword, number or punctuation between them (#SingleOriginEspresso, #LateNight,
 * #OpeningHours), in CamelCase. A lone word makes a tag only when it is a name (capitalised inside the
 * topic: #Shoreditch) or a compound (#SingleOrigin): a plain single word (#Batches, #Night) says nothing a
 * feed can follow. No two tags share a word.
 */
export function topicTags(topic: string) {
  const runs: Word[][] = [];
  let run: Word[] = [];
  for (const word of [...wordsOf(topic), null]) {
    if (word) run.push(word);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  }
  const candidates: { words: Word[]; score: number; position: number }[] = [];
  for (const phrase of runs) {
    for (const word of phrase) {
      if (!cannotStandAlone(word)) {
        candidates.push({ words: [word], score: word.name ? 3 : 2, position: word.position });
      }
    }
    for (let start = 0; start < phrase.length; start++) {
      for (let end = start + 2; end <= Math.min(phrase.length, start + 3); end++) {
        const words = phrase.slice(start, end);
        const parts = words.reduce((sum, word) => sum + word.parts, 0);
        if (parts > 3 || cannotEnd(words[words.length - 1])) continue;
        if (words.every((word) => MODIFIERS.has(word.lower) || TIME_NOUNS.has(word.lower))) continue;
        const names = words.filter((word) => word.name).length;
        const endsPhrase = end === phrase.length ? 2 : 0;
        candidates.push({
          words,
          score: 2 + names + endsPhrase + (parts === 2 ? 1 : 0),
          position: words[0].position,
        });
      }
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.position - b.position);
  const used = new Set<number>();
  const tags: string[] = [];
  for (const candidate of candidates) {
    if (candidate.words.some((word) => used.has(word.position))) continue;
    for (const word of candidate.words) used.add(word.position);
    const tag = camel(candidate.words);
    if (tag.length <= 40) tags.push(tag);
  }
  return tags;
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
