/**
 * The language of a short text by its function words, for the languages the built-in model writes. A
 * statistical detector (franc) can take a few lines of Spanish with English brand words in them for
 * Portuguese; the words only one of these languages uses cannot. Shared words (que, para, de…) are left out.
 */
const STOP_WORDS: Record<string, string[]> = {
  en: ["the", "and", "you", "your", "we", "our", "is", "are", "with", "this", "more", "it", "for", "soon"],
  es: [
    "el",
    "los",
    "las",
    "y",
    "tú",
    "te",
    "nos",
    "más",
    "hemos",
    "pronto",
    "con",
    "una",
    "está",
    "muy",
    "del",
  ],
  pt: ["o", "os", "e", "você", "nós", "mais", "não", "com", "uma", "muito", "do", "da", "em", "seu", "sua"],
  de: ["der", "die", "das", "und", "wir", "sie", "mit", "für", "ist", "ein", "eine", "nicht", "auf", "mehr"],
  fr: [
    "le",
    "les",
    "et",
    "nous",
    "vous",
    "pour",
    "avec",
    "est",
    "une",
    "des",
    "plus",
    "dans",
    "votre",
    "bientôt",
  ],
};

export function languageByStopWords(text: string) {
  const words = text.toLocaleLowerCase().match(/\p{L}+/gu) ?? [];
  const counts = Object.entries(STOP_WORDS).map(
    ([language, list]) => [language, words.filter((word) => list.includes(word)).length] as const,
  );
  counts.sort((a, b) => b[1] - a[1]);
  // A tie is no answer: the text does not say.
  return counts[0][1] > counts[1][1] ? counts[0][0] : null;
}
