import type {
  BrandResponse,
  CreateBrandInput,
  createBrandBody,
  UpdateBrandInput,
  updateBrandBody,
} from "@/lib/contracts/brands";

/**
 * The brand contract (zod), loaded when a form is first checked rather than with the page. The forms call
 * it on focus, so it is there by the time the user saves.
 */
export const loadBrandContract = () => import("@/lib/contracts/brands");

/** The settings form's state: lists are edited as one entry per line, hashtags as words. */
export type BrandDraft = {
  name: string;
  tone: string;
  voice: string;
  audience: string;
  /** BCP 47 tags separated by spaces or commas, the main language first. */
  languages: string;
  values: string;
  doList: string;
  dontList: string;
  bannedWords: string;
  defaultHashtags: string;
  primaryColor: string;
  secondaryColor: string;
  font: string;
  /** "" for the server's default voice. */
  ttsVoice: string;
  monthlyVideoQuota: string;
  /** Where new drafts' images come from: "cards" or "model". */
  imageSource: string;
  /** The brand's IANA time zone; a new brand's form starts from the browser's. */
  timeZone: string;
  /** Posts need an owner's approval before they are scheduled or published. */
  requiresApproval: boolean;
};

export type DraftField = keyof BrandDraft;
/** The fields edited as text (every field but the approval switch). */
export type TextField = Exclude<DraftField, "requiresApproval">;
export type FieldErrors = Partial<Record<DraftField | "form", string>>;

const LIST_FIELDS = ["values", "doList", "dontList", "bannedWords"] as const;

export function toDraft(brand?: BrandResponse): BrandDraft {
  return {
    name: brand?.name ?? "",
    tone: brand?.tone ?? "",
    voice: brand?.voice ?? "",
    audience: brand?.audience ?? "",
    languages: (brand?.languages ?? [brand?.language ?? "en"]).join(" "),
    values: (brand?.values ?? []).join("\n"),
    doList: (brand?.doList ?? []).join("\n"),
    dontList: (brand?.dontList ?? []).join("\n"),
    bannedWords: (brand?.bannedWords ?? []).join("\n"),
    defaultHashtags: (brand?.defaultHashtags ?? []).join(" "),
    primaryColor: brand?.primaryColor ?? "#1F2937",
    secondaryColor: brand?.secondaryColor ?? "#F59E0B",
    font: brand?.font ?? "sans",
    ttsVoice: brand?.ttsVoice ?? "",
    monthlyVideoQuota: brand?.monthlyVideoQuota == null ? "" : String(brand.monthlyVideoQuota),
    imageSource: brand?.imageSource ?? "cards",
    timeZone: brand?.timeZone ?? "UTC",
    requiresApproval: brand?.requiresApproval ?? false,
  };
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The draft as the API's request fields; the contract's schema checks them, in the browser and on the server. */
function toFields(draft: BrandDraft) {
  const quota = draft.monthlyVideoQuota.trim();
  return {
    name: draft.name,
    tone: draft.tone,
    voice: draft.voice,
    audience: draft.audience,
    languages: draft.languages.split(/[\s,]+/).filter(Boolean),
    ...Object.fromEntries(LIST_FIELDS.map((field) => [field, lines(draft[field])])),
    defaultHashtags: draft.defaultHashtags.split(/[\s,]+/).filter(Boolean),
    primaryColor: draft.primaryColor,
    secondaryColor: draft.secondaryColor,
    font: draft.font,
    ttsVoice: draft.ttsVoice === "" ? null : draft.ttsVoice,
    // Not a number stays as typed, so the contract's "whole number" message shows.
    monthlyVideoQuota: quota === "" ? null : Number.isNaN(Number(quota)) ? quota : Number(quota),
    imageSource: draft.imageSource,
    timeZone: draft.timeZone,
    requiresApproval: draft.requiresApproval,
  } as Record<string, unknown>;
}

/** Issues from the contract (in the browser or in a 400's details) next to the fields they name. */
export function fieldErrors(issues: { path: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const [named, index] = issue.path.split(".");
    // language (the main one) is the first of the languages field.
    const field = named === "language" ? "languages" : named;
    const key = (field in toDraft() ? field : "form") as DraftField | "form";
    const message =
      index !== undefined && key !== "defaultHashtags" && key !== "languages"
        ? `Line ${Number(index) + 1}: ${issue.message}`
        : issue.message;
    errors[key] ??= message;
  }
  return errors;
}

type Checked<T> = { ok: true; body: T } | { ok: false; errors: FieldErrors };

function check<T>(
  schema: typeof createBrandBody | typeof updateBrandBody,
  body: Record<string, unknown>,
): Checked<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, body: body as T };
  return {
    ok: false,
    errors: fieldErrors(
      parsed.error.issues.map((issue) => ({
        path: issue.path.join(".") || "(body)",
        message: issue.message,
      })),
    ),
  };
}

export async function checkCreate(draft: BrandDraft): Promise<Checked<CreateBrandInput>> {
  const { createBrandBody } = await loadBrandContract();
  return check(createBrandBody, toFields(draft));
}

/** Only the fields that differ from the saved brand, so a save never overwrites what it did not touch. */
export function changedFields(draft: BrandDraft, brand: BrandResponse) {
  const saved = toFields(toDraft(brand));
  return Object.fromEntries(
    Object.entries(toFields(draft)).filter(
      ([field, value]) => JSON.stringify(value) !== JSON.stringify(saved[field]),
    ),
  );
}

export async function checkUpdate(
  draft: BrandDraft,
  brand: BrandResponse,
): Promise<Checked<UpdateBrandInput>> {
  const { updateBrandBody } = await loadBrandContract();
  return check(updateBrandBody, changedFields(draft, brand));
}
