/** The topic in the forms a sentence needs: at its start, in its middle, and cut short for a headline. */
export type TopicForms = {
  /** The whole topic, tidied, without closing punctuation. */
  text: string;
  /** Starting a sentence. */
  lead: string;
  /** Inside a sentence. */
  mid: string;
  /** At most about 80 characters, for first lines, headlines and alt text. */
  short: string;
  /** At most about 60 characters, for text on an image. */
  title: string;
  /**
   * What the topic is grammatically: a thing ("our new espresso"), a statement ("we are opening a café")
   * or a question word clause ("why we switched"). "Meet …" only works for a thing.
   */
  kind: TopicKind;
  /** What the post is about, so a first line and a closing fit it ("Where do you stand?" only fits a debate). */
  mood: TopicMood;
  /** The topic has a figure in it ("40%", "May 3", "12 kilos"). */
  hasNumber: boolean;
};

export type TopicKind = "thing" | "statement" | "question";
export type TopicMood = "debate" | "tips" | "event" | "launch" | "story" | "general";

const MOODS: [TopicMood, RegExp][] = [
  [
    "debate",
    /\b(?:vs\.?|versus|or not|should (?:we|you|i|teams?|brands?)|debate|myths?|overrated|underrated|hot take|unpopular opinion|pros and cons|is it worth)\b/i,
  ],
  ["tips", /\b(?:tips?|how to|ways to|guide|checklist|lessons?|mistakes|steps|tricks|ideas for)\b/i],
  [
    "event",
    /\b(?:workshop|webinar|meetup|meet-up|tasting|event|festival|conference|class|masterclass|party|join us|this (?:weekend|saturday|sunday|friday)|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|on (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d)\b/i,
  ],
  [
    "launch",
    /\b(?:new|launch(?:es|ing)?|introducing|arriv(?:es|ing)|now (?:available|open)|debuts?|unveil(?:s|ing)?|release[sd]?|opening|opens|back in stock|returns)\b/i,
  ],
  ["story", /\b(?:behind|story|journey|how we|why we|history|origins?|meet the|years? of)\b/i],
];

export function topicMood(text: string): TopicMood {
  return MOODS.find(([, pattern]) => pattern.test(text))?.[0] ?? "general";
}

const STATEMENT_STARTS = /^(?:we|i|you|they|he|she|it|there|we're|we've|we'll|i'm|it's|there's)\b/i;
const QUESTION_STARTS = /^(?:how|why|what|when|where|who|which|whether)\b/i;

function topicKind(text: string): TopicKind {
  if (STATEMENT_STARTS.test(text)) return "statement";
  if (QUESTION_STARTS.test(text)) return "question";
  return "thing";
}

// First words that are plainly not names, so they may lose their capital inside a sentence.
const COMMON_STARTS = new Set(
  (
    "a an the our your my their his her its this that these those we you i how why what when where who " +
    "new all every some more most best top five three ten two four six seven eight nine one " +
    "introducing launching meet inside behind tips ways reasons lessons ideas guide"
  ).split(" "),
);

const TRAILING_FILLER =
  /\s+(?:a|an|the|of|and|or|to|for|with|in|on|at|by|from|our|your|their|its|is|are|that|which|who|as)$/i;

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function decapitalize(text: string) {
  const first = text.split(/\s/, 1)[0] ?? "";
  const word = first.toLowerCase().replace(/[^\p{L}]/gu, "");
  const plainWord = first.slice(1) === first.slice(1).toLowerCase();
  if (plainWord && (COMMON_STARTS.has(word) || /ing$/.test(word)))
    return text.charAt(0).toLowerCase() + text.slice(1);
  return text;
}

/** Cuts text to at most `max` characters at a word boundary, without a dangling "of the". */
export function shorten(text: string, max: number) {
  let firstClause = text.split(/(?<=[.!?;])\s|\s[—–-]\s|:\s/)[0] ?? text;
  if (firstClause.length > max) {
    // "Our new espresso, roasted in small batches" reads better cut at the comma than mid-phrase.
    const beforeComma = firstClause.slice(0, max + 1).split(/,\s/)[0];
    if (beforeComma.length <= max && beforeComma.split(/\s+/).length >= 3) firstClause = beforeComma;
  }
  const tidy = (result: string) => result.replace(/[\s,;:—–-]+$/, "");
  if (firstClause.length <= max) return tidy(firstClause) || text.slice(0, max);
  // Cut mid-phrase: drop the words that only lead into what was cut off.
  let result = firstClause.slice(0, max + 1).replace(/\s+\S*$/, "") || text.slice(0, max);
  while (TRAILING_FILLER.test(result)) result = result.replace(TRAILING_FILLER, "");
  return tidy(result);
}

export function topicForms(topic: string): TopicForms {
  const text = topic
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.!?;:,…]+$/, "");
  const short = shorten(text, 80);
  return {
    text,
    lead: capitalize(text),
    mid: decapitalize(text),
    short: capitalize(short),
    title: capitalize(shorten(text, 60)),
    kind: topicKind(text),
    mood: topicMood(text),
    hasNumber: /\p{N}/u.test(text),
  };
}

export { capitalize, decapitalize };
