import { EMOJI } from "../script";

/** Text fit for drawtext's font: emoji removed, whitespace collapsed. */
export function cleanSceneText(text: string) {
  return text.replace(EMOJI, "").replace(/\s+/g, " ").trim();
}

function splitLongText(text: string, maxChars: number): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    if (current && current.length + 1 + word.length > maxChars) {
      chunks.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * Cuts a script into scenes: whole sentences packed up to `maxChars` each, so one scene is a few seconds
 * of speech and fits on screen. A sentence longer than that is cut between words.
 */
export function splitIntoScenes(script: string, maxChars = 110): string[] {
  const sentences = script
    .split(/(?<=[.!?…])\s+|\n+/)
    .map(cleanSceneText)
    .filter(Boolean)
    .flatMap((sentence) => (sentence.length > maxChars ? splitLongText(sentence, maxChars) : [sentence]));
  const scenes: string[] = [];
  for (const sentence of sentences) {
    const last = scenes.at(-1);
    if (last !== undefined && last.length + 1 + sentence.length <= maxChars) {
      scenes[scenes.length - 1] = `${last} ${sentence}`;
    } else {
      scenes.push(sentence);
    }
  }
  return scenes;
}

/** Word-wraps a scene into lines of at most `maxLineChars` (a longer single word is cut). */
export function wrapLines(text: string, maxLineChars: number): string[] {
  const words = text
    .split(" ")
    .filter(Boolean)
    .flatMap((word) => {
      const pieces: string[] = [];
      for (let i = 0; i < word.length; i += maxLineChars) pieces.push(word.slice(i, i + maxLineChars));
      return pieces;
    });
  return splitLongText(words.join(" "), maxLineChars);
}
