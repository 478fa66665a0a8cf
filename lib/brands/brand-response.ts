import type { Brand } from "@/db/schema";
import { BRAND_FONT_IDS, type BrandFont, TTS_VOICES, type TtsVoice } from "@/lib/contracts/brand-kit-rules";
import type { BrandContextResponse, BrandResponse } from "@/lib/contracts/brands";
import type { BrandRole } from "@/lib/contracts/enums";
import { signedMediaUrl } from "@/lib/media/storage";
import { buildBrandPrompt } from "./brand-prompt";
import { effectiveMonthlyQuota } from "./quota-policy";

/** The fields that make up the brand's voice, shared by the brand and its AI context. */
const voiceFields = (brand: Brand) => ({
  brandId: brand.id,
  name: brand.name,
  tone: brand.tone,
  voice: brand.voice,
  audience: brand.audience,
  language: brand.language,
  languages: brand.languages.length ? brand.languages : [brand.language],
  values: brand.values,
  doList: brand.doList,
  dontList: brand.dontList,
  bannedWords: brand.bannedWords,
  defaultHashtags: brand.defaultHashtags,
});

/** The brand as the API shows it: every profile field plus the avatar's state and freshly signed file URLs. */
export async function toBrandResponse(brand: Brand, role: BrandRole): Promise<BrandResponse> {
  return {
    ...voiceFields(brand),
    primaryColor: brand.primaryColor,
    secondaryColor: brand.secondaryColor,
    font: (BRAND_FONT_IDS as readonly string[]).includes(brand.font) ? (brand.font as BrandFont) : "sans",
    ttsVoice: (TTS_VOICES as readonly string[]).includes(brand.ttsVoice ?? "")
      ? (brand.ttsVoice as TtsVoice)
      : null,
    timeZone: brand.timeZone,
    requiresApproval: brand.requiresApproval,
    imageSource: brand.imageSource,
    monthlyVideoQuota: brand.monthlyVideoQuota,
    effectiveMonthlyVideoQuota: effectiveMonthlyQuota(brand.monthlyVideoQuota),
    role,
    avatarStatus: brand.avatarStatus,
    avatarUrl: await signedMediaUrl(brand.avatarImageKey),
    avatarFrameUrl: brand.avatarStatus === "ready" ? await signedMediaUrl(brand.avatarFramesKey) : null,
    avatarError: brand.avatarStatus === "failed" ? brand.avatarError : null,
    avatarTrainingEndsAt:
      brand.avatarStatus === "training" ? (brand.avatarTrainingEndsAt?.toISOString() ?? null) : null,
    logoUrl: await signedMediaUrl(brand.logoKey),
    musicUrl: await signedMediaUrl(brand.musicKey),
    createdAt: brand.createdAt.toISOString(),
    updatedAt: brand.updatedAt.toISOString(),
  };
}

/**
 * What AI generation works from, with the exact system prompt it sends and, per channel, the examples it
 * adds to a draft's prompt (lib/posts/learn-from-results.ts).
 */
export function toBrandContext(
  brand: Brand,
  examples: BrandContextResponse["examples"],
): BrandContextResponse {
  return {
    ...voiceFields(brand),
    avatarStatus: brand.avatarStatus,
    updatedAt: brand.updatedAt.toISOString(),
    prompt: buildBrandPrompt(brand),
    examples,
  };
}
