"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, type TextareaHTMLAttributes, useEffect, useState } from "react";
import { Button, Card, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { createBrand, updateBrand } from "@/lib/client/operations";
import { BRAND_FONT_IDS, BRAND_FONTS, TTS_VOICES } from "@/lib/contracts/brand-kit-rules";
import { BRAND_LIMITS } from "@/lib/contracts/brand-rules";
import type { BrandResponse, CreateBrandInput, UpdateBrandInput } from "@/lib/contracts/brands";
import { formatInZone, localTimeZone, timeZoneNames } from "@/lib/contracts/time-zone";
import {
  type BrandDraft,
  changedFields,
  checkCreate,
  checkUpdate,
  type FieldErrors,
  fieldErrors,
  loadBrandContract,
  type TextField,
  toDraft,
} from "./brand-draft";
import { BrandPreview } from "./brand-preview";

const INVALID = "aria-invalid:border-red-400 aria-invalid:ring-2 aria-invalid:ring-red-100";
const SELECT =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30";

function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      {...props}
      className={`block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 ${props.className ?? ""}`}
    />
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card className="space-y-4">
      <div>
        <h2 className="font-semibold">{title}</h2>
        <p className="text-sm text-slate-600">{description}</p>
      </div>
      {children}
    </Card>
  );
}

/**
 * Every brand field, checked with the contract's own schema before it is sent; the server's 400 details
 * land next to the same fields. Creates a brand, or saves only the changed fields of an existing one.
 */
export function BrandForm({
  brand,
  onSaved,
  readOnly = false,
}: {
  brand?: BrandResponse;
  onSaved: (brand: BrandResponse) => void;
  /** The caller's role may not edit the brand (the permission table): every control is disabled. */
  readOnly?: boolean;
}) {
  const [draft, setDraft] = useState<BrandDraft>(() => toDraft(brand));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  // The browser's zones and its own zone are read after mount, so the server's render and the first client
  // render agree; a new brand then starts in the browser's zone.
  const [zones, setZones] = useState<string[]>([]);
  useEffect(() => {
    setZones(timeZoneNames());
    if (!brand) {
      const own = localTimeZone();
      setDraft((current) => (current.timeZone === "UTC" ? { ...current, timeZone: own } : current));
    }
  }, [brand]);

  const save = useMutation({
    mutationFn: async (body: CreateBrandInput | UpdateBrandInput) =>
      brand
        ? (await callApi(updateBrand, { params: { brandId: brand.brandId }, body })).data
        : (await callApi(createBrand, { body: body as CreateBrandInput })).data,
    onSuccess: (result) => {
      setDraft(toDraft(result));
      setSaved(true);
      onSaved(result);
    },
    onError: (error) => {
      if (error instanceof ApiClientError && Array.isArray(error.details))
        setErrors(fieldErrors(error.details));
    },
  });

  const dirty = brand ? Object.keys(changedFields(draft, brand)).length > 0 : true;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = await (brand ? checkUpdate(draft, brand) : checkCreate(draft));
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.body);
  }

  const bind = (field: TextField) => ({
    name: field,
    value: draft[field],
    "aria-invalid": errors[field] ? true : undefined,
    className: INVALID,
    onChange: (event: { target: { value: string } }) => {
      setDraft((current) => ({ ...current, [field]: event.target.value }));
      setSaved(false);
    },
  });
  const lists = (count: number, length: number) =>
    `One per line; at most ${count}, each up to ${length} characters.`;

  return (
    <form onSubmit={onSubmit} onFocus={() => void loadBrandContract()} noValidate className="space-y-6">
      <fieldset disabled={readOnly} className="space-y-6">
        <Section title="Identity" description="Who the brand is and who it talks to.">
          <Field label="Name" error={errors.name} hint={`Up to ${BRAND_LIMITS.name} characters.`}>
            <TextInput {...bind("name")} placeholder="Northwind Coffee" />
          </Field>
          <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
            <Field
              label="Audience"
              error={errors.audience}
              hint={`Up to ${BRAND_LIMITS.audience} characters.`}
            >
              <TextInput {...bind("audience")} placeholder="Busy professionals aged 25 to 40" />
            </Field>
            <Field
              label="Languages"
              error={errors.languages}
              hint="Codes separated by spaces, the main one first: en es pt-BR. One brief can give a post in each."
            >
              <TextInput {...bind("languages")} placeholder="en es" />
            </Field>
          </div>
        </Section>

        <Section
          title="Voice"
          description="Post generation needs a tone and a voice; without them it has nothing to write in."
        >
          <Field
            label="Tone"
            error={errors.tone}
            hint={`A few words, up to ${BRAND_LIMITS.tone} characters.`}
          >
            <TextInput {...bind("tone")} placeholder="warm, upbeat and confident" />
          </Field>
          <Field
            label="Voice"
            error={errors.voice}
            hint={`How the brand writes, up to ${BRAND_LIMITS.voice} characters.`}
          >
            <TextArea
              {...bind("voice")}
              rows={3}
              placeholder="We talk like a friendly barista: short sentences, no jargon."
            />
          </Field>
          <Field
            label="Values"
            error={errors.values}
            hint={lists(BRAND_LIMITS.values.items, BRAND_LIMITS.values.length)}
          >
            <TextArea {...bind("values")} rows={3} placeholder={"craft\nfair trade"} />
          </Field>
        </Section>

        <Section
          title="Rules"
          description="What every post does and never does. Generation checks banned words."
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Always do"
              error={errors.doList}
              hint={lists(BRAND_LIMITS.doList.items, BRAND_LIMITS.doList.length)}
            >
              <TextArea {...bind("doList")} rows={4} placeholder="mention the origin of the beans" />
            </Field>
            <Field
              label="Never do"
              error={errors.dontList}
              hint={lists(BRAND_LIMITS.dontList.items, BRAND_LIMITS.dontList.length)}
            >
              <TextArea {...bind("dontList")} rows={4} placeholder="make health claims" />
            </Field>
          </div>
          <Field
            label="Banned words"
            error={errors.bannedWords}
            hint={lists(BRAND_LIMITS.bannedWords.items, BRAND_LIMITS.bannedWords.length)}
          >
            <TextArea {...bind("bannedWords")} rows={3} placeholder={"cheap\nmiracle"} />
          </Field>
          <Field
            label="Default hashtags"
            error={errors.defaultHashtags}
            hint={`Separated by spaces; at most ${BRAND_LIMITS.defaultHashtags.items}, each # followed by letters, digits or _.`}
          >
            <TextInput {...bind("defaultHashtags")} placeholder="#NorthwindCoffee #SpecialtyCoffee" />
          </Field>
        </Section>

        <Section
          title="Look and video"
          description="The brand kit: videos use the colours, the font and the voice; the quota caps videos per calendar month."
        >
          <div className={brand ? "grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,15rem)]" : ""}>
            <div className="grid content-start gap-4 sm:grid-cols-2">
              {(
                [
                  ["primaryColor", "Primary colour"],
                  ["secondaryColor", "Secondary colour"],
                ] as const
              ).map(([field, label]) => (
                <Field key={field} label={label} error={errors[field]} hint="#RRGGBB">
                  <div className="flex items-center gap-2">
                    <input
                      type="color"
                      aria-label={`${label} picker`}
                      value={/^#[0-9A-Fa-f]{6}$/.test(draft[field]) ? draft[field] : "#000000"}
                      onChange={(event) =>
                        bind(field).onChange({ target: { value: event.target.value.toUpperCase() } })
                      }
                      className="h-9 w-10 cursor-pointer rounded border border-slate-300 bg-white"
                    />
                    {/* A label wraps only its first control, so the text box names itself. */}
                    <TextInput {...bind(field)} aria-label={label} className={`font-mono ${INVALID}`} />
                  </div>
                </Field>
              ))}
              <Field
                label="Monthly video quota"
                error={errors.monthlyVideoQuota}
                hint={
                  brand
                    ? `Empty uses the deployment default. In effect now: ${brand.effectiveMonthlyVideoQuota} a month.`
                    : `0 to ${BRAND_LIMITS.monthlyVideoQuota}; empty uses the deployment default.`
                }
              >
                <TextInput {...bind("monthlyVideoQuota")} inputMode="numeric" placeholder="Default" />
              </Field>
              <Field label="Font" error={errors.font} hint="Captions and text in videos; bundled open fonts.">
                <select {...bind("font")} className={SELECT}>
                  {BRAND_FONT_IDS.map((id) => (
                    <option key={id} value={id}>
                      {BRAND_FONTS[id].label}
                    </option>
                  ))}
                </select>
              </Field>
              <Field
                label="Narrator"
                error={errors.ttsVoice}
                hint="OpenAI's speech uses it when the server has an OpenAI key; otherwise eSpeak reads in the brand's language."
              >
                <select {...bind("ttsVoice")} className={SELECT}>
                  <option value="">Server default</option>
                  {TTS_VOICES.map((voice) => (
                    <option key={voice} value={voice}>
                      {voice.charAt(0).toUpperCase() + voice.slice(1)}
                    </option>
                  ))}
                </select>
              </Field>
              <Field
                label="Post images"
                error={errors.imageSource}
                hint="Every image in a new draft starts as a branded card at once. With the image model (when the server has one), its picture replaces the card in the background; each is a paid call."
              >
                <select {...bind("imageSource")} className={SELECT}>
                  <option value="cards">Branded cards (free)</option>
                  <option value="model">Image model</option>
                </select>
              </Field>
            </div>
            {brand && (
              <BrandPreview
                brandId={brand.brandId}
                logoUrl={brand.logoUrl}
                primaryColor={draft.primaryColor}
                secondaryColor={draft.secondaryColor}
                font={draft.font}
              />
            )}
          </div>
        </Section>

        <Section title="Team" description="How posts get from a draft to a channel.">
          <div className="max-w-sm">
            <Field
              label="Time zone"
              error={errors.timeZone}
              hint={
                zones.includes(draft.timeZone)
                  ? `Publishing times show and are typed in it. Now there: ${formatInZone(new Date(), draft.timeZone, { zone: false })}.`
                  : "An IANA name such as Europe/Berlin; type to search."
              }
            >
              <TextInput
                {...bind("timeZone")}
                list="brand-time-zones"
                autoComplete="off"
                spellCheck={false}
                placeholder="Europe/Berlin"
              />
            </Field>
            <datalist id="brand-time-zones">
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </div>
          <label className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              name="requiresApproval"
              checked={draft.requiresApproval}
              onChange={(event) => {
                const requiresApproval = event.target.checked;
                setDraft((current) => ({ ...current, requiresApproval }));
                setSaved(false);
              }}
              aria-describedby="requires-approval-hint"
              className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500/30"
            />
            <span>
              <span className="font-medium text-slate-800">Posts need approval</span>
              <span id="requires-approval-hint" className="block text-slate-600">
                An editor submits a draft; an owner approves it or asks for changes. Only approved posts can
                be scheduled or published.
              </span>
            </span>
          </label>
          {errors.requiresApproval && <ErrorNotice message={errors.requiresApproval} />}
        </Section>

        {errors.form && <ErrorNotice message={errors.form} />}
        {save.error && !(save.error instanceof ApiClientError && Array.isArray(save.error.details)) && (
          <ErrorNotice
            message={save.error.message}
            onRetry={
              save.error instanceof ApiClientError && save.error.retryable && save.variables
                ? () => save.mutate(save.variables)
                : undefined
            }
          />
        )}
        {/* With changes to save, the button stays in sight while any part of the form is on screen. */}
        <div
          className={`flex items-center gap-3 ${
            brand && dirty
              ? "sticky bottom-3 z-10 rounded-xl border border-slate-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur"
              : ""
          }`}
        >
          <Button type="submit" className="shrink-0 whitespace-nowrap" disabled={save.isPending || !dirty}>
            {save.isPending ? "Saving…" : brand ? "Save changes" : "Create brand"}
          </Button>
          {brand && saved && !dirty && (
            <span role="status" className="text-sm text-emerald-700">
              Saved.
            </span>
          )}
          {brand && !saved && !dirty && !readOnly && (
            <span className="text-sm text-slate-500">No unsaved changes.</span>
          )}
          {brand && dirty && <span className="text-sm text-slate-600">Unsaved changes to this brand.</span>}
        </div>
      </fieldset>
    </form>
  );
}
