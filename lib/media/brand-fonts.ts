import "server-only";
import path from "node:path";
import { type BrandFont, DEFAULT_BRAND_FONT } from "@/lib/contracts/brand-kit-rules";

/** Each bundled font's TTF files (regular and bold), from the npm packages that ship them. */
const FILES: Record<BrandFont, { regular: string; bold: string }> = {
  sans: {
    regular: "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf",
    bold: "@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf",
  },
  serif: {
    regular: "@expo-google-fonts/lora/400Regular/Lora_400Regular.ttf",
    bold: "@expo-google-fonts/lora/700Bold/Lora_700Bold.ttf",
  },
  display: {
    regular: "@expo-google-fonts/bebas-neue/400Regular/BebasNeue_400Regular.ttf",
    bold: "@expo-google-fonts/bebas-neue/400Regular/BebasNeue_400Regular.ttf",
  },
};

/** The absolute path of a brand font's TTF (an unknown id falls back to the default font). */
export function brandFontFile(font: string, weight: "regular" | "bold" = "regular") {
  const files = FILES[font as BrandFont] ?? FILES[DEFAULT_BRAND_FONT];
  return path.join(process.cwd(), "node_modules", files[weight]);
}
