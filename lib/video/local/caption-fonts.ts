import fs from "node:fs";
import path from "node:path";
import { UnrenderableError } from "../provider";

/** Where Debian's Noto packages put their fonts. */
const NOTO = {
  core: "/usr/share/fonts/truetype/noto",
  cjk: "/usr/share/fonts/opentype/noto",
};

/** A script the brand fonts do not draw, the Noto font that does, and the Debian package that holds it. */
type ScriptFont = {
  script: string;
  test: RegExp;
  file: string;
  /** The font's family name, which the subtitle file asks libass for (per language for CJK). */
  family: (language: string) => string;
  debianPackage: string;
};

const CJK_FAMILY = (language: string) => {
  const tag = language.toLowerCase();
  if (tag.startsWith("ja")) return "Noto Sans CJK JP";
  if (tag.startsWith("ko")) return "Noto Sans CJK KR";
  if (/^zh-(tw|hant|hk|mo)/.test(tag)) return "Noto Sans CJK TC";
  return "Noto Sans CJK SC";
};

export const SCRIPT_FONTS: ScriptFont[] = [
  {
    script: "Arabic",
    test: /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/,
    file: path.join(NOTO.core, "NotoSansArabic-Bold.ttf"),
    family: () => "Noto Sans Arabic",
    debianPackage: "fonts-noto-core",
  },
  {
    script: "Hebrew",
    test: /[\u0590-\u05ff\ufb1d-\ufb4f]/,
    file: path.join(NOTO.core, "NotoSansHebrew-Bold.ttf"),
    family: () => "Noto Sans Hebrew",
    debianPackage: "fonts-noto-core",
  },
  {
    script: "Devanagari",
    test: /[\u0900-\u097f]/,
    file: path.join(NOTO.core, "NotoSansDevanagari-Bold.ttf"),
    family: () => "Noto Sans Devanagari",
    debianPackage: "fonts-noto-core",
  },
  {
    script: "Thai",
    test: /[\u0e00-\u0e7f]/,
    file: path.join(NOTO.core, "NotoSansThai-Bold.ttf"),
    family: () => "Noto Sans Thai",
    debianPackage: "fonts-noto-core",
  },
  {
    script: "Chinese, Japanese or Korean",
    test: /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/,
    file: path.join(NOTO.cjk, "NotoSansCJK-Bold.ttc"),
    family: CJK_FAMILY,
    debianPackage: "fonts-noto-cjk",
  },
];

/** The script font a caption needs (null: the brand's own font draws it). */
export const scriptFontFor = (text: string, fonts = SCRIPT_FONTS) =>
  fonts.find((font) => font.test.test(text)) ?? null;

/**
 * The fonts the captions need, linked into `fontsDir` (libass's fonts directory: it loads every file
 * there, so only the brand font and the scripts' fonts go in). A script whose font is not installed
 * fails the render, naming the Debian package, rather than drawing boxes.
 */
export async function linkCaptionFonts(
  texts: string[],
  brandFontFile: string,
  fontsDir: string,
  fonts = SCRIPT_FONTS,
) {
  const needed = new Set(texts.map((text) => scriptFontFor(text, fonts)).filter((font) => font !== null));
  for (const font of needed) {
    if (!fs.existsSync(font.file)) {
      throw new UnrenderableError(
        "provider_unavailable",
        `The captions are in ${font.script} script, and its font (${path.basename(font.file)}) is not installed on the render server: install Debian's ${font.debianPackage} package.`,
      );
    }
  }
  await fs.promises.mkdir(fontsDir, { recursive: true });
  await Promise.all(
    [brandFontFile, ...[...needed].map((font) => font.file)].map((file) =>
      fs.promises.symlink(file, path.join(fontsDir, path.basename(file))),
    ),
  );
}
