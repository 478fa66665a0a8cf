import type { Brand } from "@/db/schema";
import { DEMO_BRAND } from "@/db/seed";
import type { PostBrief } from "@/lib/ai/brief-block";
import { CHANNEL_RULES, type Channel, type Goal } from "@/lib/contracts/posts";

/** A brand row as the database returns it, for tests of code that takes a loaded brand. */
export function brandRow(overrides: Partial<Brand> = {}): Brand {
  return {
    id: "brd_testbrand0001",
    ...DEMO_BRAND,
    monthlyVideoQuota: null,
    avatarStatus: "none",
    avatarImageKey: null,
    avatarFramesKey: null,
    avatarError: null,
    avatarTrainingEndsAt: null,
    avatarProvider: null,
    avatarProviderRef: null,
    logoKey: null,
    font: "sans",
    musicKey: null,
    ttsVoice: null,
    requiresApproval: false,
    imageSource: "cards",
    timeZone: "UTC",
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

export function briefFor(
  channel: Channel,
  goal: Goal,
  topic: string,
  assets: PostBrief["assets"] = [],
): PostBrief {
  const rules = CHANNEL_RULES[channel];
  return {
    channel,
    goal,
    topic,
    assets,
    captionLimit: rules.captionLimit,
    captionLimitWithMedia: rules.captionLimitWithMedia,
    maxHashtags: rules.maxHashtags,
  };
}

type Api = typeof import("./http").api;

/** The seeded demo brand's id, as its owner sees it through GET /api/brands. */
export async function demoBrandId(api: Api, token: string, server?: string) {
  const response = await api("/api/brands", { token, server });
  if (response.status !== 200)
    throw new Error(`GET /api/brands answered ${response.status}: ${response.text}`);
  const brand = response.body.items.find((item: { name: string }) => item.name === DEMO_BRAND.name);
  if (!brand) throw new Error("The demo brand is missing.");
  return brand.brandId as string;
}

/** Creates a brand through POST /api/brands and returns its id. */
export async function createBrand(api: Api, token: string, fields: Record<string, unknown>, server?: string) {
  const response = await api("/api/brands", { method: "POST", token, json: fields, server });
  if (response.status !== 201)
    throw new Error(`POST /api/brands answered ${response.status}: ${response.text}`);
  return response.body.brandId as string;
}
