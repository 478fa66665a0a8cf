/**
 * A brand's and a channel's languages (DESIGN §11): BCP 47 tags, checked and spelled canonically with the
 * runtime's Intl (ICU), so the server and the browser share the rules. zod-free.
 */

/** At most this many languages on a brand, and in one Generate post request. */
export const MAX_LANGUAGES = 10;

const names = new Map<string, Intl.DisplayNames>();

function displayNames(type: "language" | "region" | "script", locale = "en") {
  const key = `${type}:${locale}`;
  let found = names.get(key);
  if (!found) {
    found = new Intl.DisplayNames([locale], { type, fallback: "none" });
    names.set(key, found);
  }
  return found;
}

/**
 * The canonical spelling of a BCP 47 tag (pt-br → pt-BR, iw → he) when it is well formed and its language,
 * script and region are ones the runtime knows; null otherwise ("xx", "klingon", "de-XX").
 */
export function canonicalLanguageTag(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    const locale = new Intl.Locale(canonical);
    if (!displayNames("language").of(locale.language)) return null;
    if (locale.script && !displayNames("script").of(locale.script)) return null;
    if (locale.region && !displayNames("region").of(locale.region)) return null;
    return canonical;
  } catch {
    return null;
  }
}

/** The primary language subtag: "pt" for pt-BR. */
export const baseLanguage = (tag: string) => tag.split("-")[0].toLowerCase();

/** "Spanish", "Brazilian Portuguese": a tag's name in English, or the tag when the runtime has none. */
export function languageName(tag: string): string {
  try {
    return displayNames("language").of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** "Español": a tag's name in its own language, for switchers a speaker of that language reads. */
export function nativeLanguageName(tag: string): string {
  try {
    const name = displayNames("language", tag).of(tag) ?? tag;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}

/** Right-to-left scripts: Arabic, Hebrew, Persian, Urdu… (the Intl.Locale text direction where supported). */
export function isRightToLeft(tag: string): boolean {
  try {
    const locale = new Intl.Locale(tag) as Intl.Locale & {
      getTextInfo?: () => { direction?: string };
      textInfo?: { direction?: string };
    };
    const info = locale.getTextInfo?.() ?? locale.textInfo;
    if (info?.direction) return info.direction === "rtl";
  } catch {}
  return ["ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ckb"].includes(baseLanguage(tag));
}
