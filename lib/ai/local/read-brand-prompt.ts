/** What the local model understands of the brand, read back from the system prompt it was given. */
export type BrandBrief = {
  name: string;
  tone: string;
  voice: string;
  audience: string;
  values: string[];
  doList: string[];
  dontList: string[];
  bannedWords: string[];
  hashtags: string[];
};

const LABELS = [
  "Tone",
  "Voice",
  "Audience",
  "Brand values",
  "Always",
  "Never",
  "Banned words",
  "Brand hashtags",
];
const SECTION_START = new RegExp(`\\n\\n(?=(?:${LABELS.join("|")})[^\\n:]*:)`);

const listItems = (body: string) =>
  body
    .split("\n")
    .map((line) => line.replace(/^\s*-\s*/, "").trim())
    .filter(Boolean);

/**
 * Parses the text `buildBrandPrompt` writes (lib/brands/brand-prompt.ts). The local model reads the same
 * prompt a hosted model would, so a brand setting only matters if it reaches the prompt.
 */
export function readBrandPrompt(system: string): BrandBrief {
  const brand: BrandBrief = {
    name: system.match(/for the brand "([\s\S]*?)"\. Write in/)?.[1]?.trim() || "our brand",
    tone: "",
    voice: "",
    audience: "",
    values: [],
    doList: [],
    dontList: [],
    bannedWords: [],
    hashtags: [],
  };
  for (const section of system.split(SECTION_START)) {
    const colon = section.indexOf(":");
    const label = section.slice(0, colon);
    const body = section.slice(colon + 1).trim();
    if (label === "Tone") brand.tone = body;
    else if (label === "Voice") brand.voice = body;
    else if (label === "Audience") brand.audience = body;
    else if (label === "Brand values") brand.values = listItems(body);
    else if (label === "Always") brand.doList = listItems(body);
    else if (label === "Never") brand.dontList = listItems(body);
    else if (label.startsWith("Banned words")) {
      brand.bannedWords = body
        .split(",")
        .map((word) => word.trim())
        .filter(Boolean);
    } else if (label.startsWith("Brand hashtags")) brand.hashtags = body.split(/\s+/).filter(Boolean);
  }
  return brand;
}
