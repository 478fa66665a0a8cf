const EXCERPT_WORDS = 12;

/** A caption's first words, for a link's text. */
export function excerptOf(caption: string) {
  const words = caption.replace(/\s+/g, " ").trim().split(" ");
  return words.length > EXCERPT_WORDS ? `${words.slice(0, EXCERPT_WORDS).join(" ")}…` : words.join(" ");
}
