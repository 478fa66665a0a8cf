import type { Brand } from "@/db/schema";

export type BrandVoice = Pick<
  Brand,
  | "name"
  | "tone"
  | "voice"
  | "audience"
  | "language"
  | "values"
  | "doList"
  | "dontList"
  | "bannedWords"
  | "defaultHashtags"
>;

const list = (items: string[]) => items.map((item) => `- ${item}`).join("\n");

/**
 * Each code's name is looked up once per process: building an Intl.DisplayNames and asking it cost more
 * than the rest of the prompt. Brands use a handful of codes; the map is bounded all the same.
 */
const languageNames = new Map<string, string>();

function lookUpLanguageName(code: string) {
  try {
    const name = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" }).of(code);
    if (name) return code === "en" ? name : `${name} (${code})`;
  } catch {}
  return `the language with code "${code}"`;
}

/** "English", "German (de)", "Brazilian Portuguese (pt-BR)": a model follows a name better than a code. */
function languageName(code: string) {
  let name = languageNames.get(code);
  if (name === undefined) {
    name = lookUpLanguageName(code);
    if (languageNames.size >= 500) languageNames.clear();
    languageNames.set(code, name);
  }
  return name;
}

/**
 * The exact system text that post generation sends to the model for this brand. The brand-context
 * operation returns the same string, so what the model sees can be checked.
 */
export function buildBrandPrompt(
  brand: BrandVoice,
  options: { toneOverride?: string | null; language?: string } = {},
) {
  const tone = options.toneOverride?.trim() || brand.tone;
  const language = options.language ?? brand.language;
  const sections = [
    `You are the social media copywriter for the brand "${brand.name}". Write in ${languageName(language)}.`,
  ];
  if (!/^en\b/i.test(language)) {
    sections.push(
      `Language: write the caption, the hashtags and the media plan's texts in ${languageName(language)}, as a native copywriter of that language would (not a word-for-word translation). Hashtags are words people of that language search for.`,
    );
  }
  sections.push(`Tone: ${tone}`, `Voice: ${brand.voice}`);
  if (brand.audience) sections.push(`Audience: ${brand.audience}`);
  if (brand.values.length) sections.push(`Brand values:\n${list(brand.values)}`);
  if (brand.doList.length) sections.push(`Always:\n${list(brand.doList)}`);
  if (brand.dontList.length) sections.push(`Never:\n${list(brand.dontList)}`);
  if (brand.bannedWords.length) {
    sections.push(`Banned words (never use them, in any form): ${brand.bannedWords.join(", ")}`);
  }
  if (brand.defaultHashtags.length)
    sections.push(`Brand hashtags to prefer: ${brand.defaultHashtags.join(" ")}`);
  return sections.join("\n\n");
}
