/**
 * Finds listed words and phrases in text "in any form": case-insensitive, at the start of a word, with
 * the common English endings (cheap → cheaper, cheapest; guarantee → guaranteed). Matching word starts
 * rather than substrings keeps a banned "ass" out of "class".
 */
const ENDINGS = "(?:s|es|'s|’s|d|ed|er|ers|est|ly|ing|y|ness)?";

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Compiled once per term and process: a brand's banned words are checked against every draft.
const patterns = new Map<string, RegExp>();

function termPattern(term: string) {
  let pattern = patterns.get(term);
  if (!pattern) {
    const words = term.trim().split(/\s+/).map(escapeRegExp).join("\\s+");
    // No `g` flag, so test() keeps no state between calls.
    pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${words}${ENDINGS}(?![\\p{L}\\p{N}_])`, "iu");
    if (patterns.size >= 10_000) patterns.clear();
    patterns.set(term, pattern);
  }
  return pattern;
}

const normalize = (terms: string[]) => [...new Set(terms.map((term) => term.trim()).filter(Boolean))];

export function findTerms(text: string, terms: string[]): string[] {
  return normalize(terms).filter((term) => termPattern(term).test(text));
}

/** Splits a hashtag body into words: #SpecialtyCoffee → "Specialty Coffee". */
export function hashtagWords(tag: string) {
  return tag
    .replace(/^#+/, "")
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/_/g, " ");
}

/**
 * Hashtags run words together (#cheapcoffee), so besides their CamelCase words they are searched for
 * terms of four letters or more anywhere in the tag.
 */
export function findTermsInHashtag(tag: string, terms: string[]): string[] {
  const body = tag.replace(/^#+/, "").toLowerCase();
  const words = hashtagWords(tag);
  return normalize(terms).filter((term) => {
    const joined = term.replace(/\s+/g, "");
    return termPattern(term).test(words) || (joined.length >= 4 && body.includes(joined.toLowerCase()));
  });
}

/** Removes every form of the terms from the text and tidies the spacing left behind. */
export function removeTerms(text: string, terms: string[]) {
  let result = text;
  for (const term of normalize(terms)) {
    result = result.replace(new RegExp(termPattern(term).source, "giu"), "");
  }
  return result
    .replace(/[ \t]{2,}/g, " ")
    .replace(/ +([,.;:!?])/g, "$1")
    .replace(/^ +| +$/gm, "");
}
