import "server-only";
import path from "node:path";
import { type BrandFont, DEFAULT_BRAND_FONT } from "@/lib/contracts/brand-kit-rules";

/** Each bundled font's TTF files (regular and bold), from the npm packages that ship them. */
const FILES: Record<BrandFont, { family: string; regular: string; bold: string }> = {
  sans: {
    family: "Inter",
    regular: "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf",
    bold: "@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf",
  },
  serif: {
    family: "Lora",
    regular: "@expo-google-fonts/lora/400Regular/Lora_400Regular.ttf",
    bold: "@expo-google-fonts/lora/700Bold/Lora_700Bold.ttf",
  },
  display: {
    family: "Bebas Neue",
    regular: "@expo-google-fonts/bebas-neue/400Regular/BebasNeue_400Regular.ttf",
    bold: "@expo-google-fonts/bebas-neue/400Regular/BebasNeue_400Regular.ttf",
  },
};

/** A brand font's family name (what a subtitle file asks libass for). */
export function brandFontFamily(font: string) {
  return (FILES[font as BrandFont] ?? FILES[DEFAULT_BRAND_FONT]).family;
}

/** The absolute path of a brand font's TTF (an unknown id falls back to the default font). */
export function brandFontFile(font: string, weight: "regular" | "bold" = "regular") {
  const files = FILES[font as BrandFont] ?? FILES[DEFAULT_BRAND_FONT];
  return path.join(process.cwd(), "node_modules", files[weight]);
}
