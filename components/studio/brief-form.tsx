"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useFieldArray, useForm } from "react-hook-form";
import { z } from "zod";
import {
  CHANNEL_LABELS,
  CharacterCount,
  GOAL_LABELS,
  PostSelect,
  PostTextArea,
} from "@/components/studio/form-controls";
import { Button, Field, TextInput } from "@/components/ui/primitives";
import {
  BRIEF_TOO_SHORT_MESSAGE,
  CHANNELS,
  channel,
  type GeneratePostInput,
  GOALS,
  generatePostBody,
  goal,
  isTopicLongEnough,
  MAX_MEDIA_ITEMS,
  MIN_TOPIC_CHARS,
  MIN_TOPIC_WORDS,
  postAsset,
} from "@/lib/contracts/posts";

export const MAX_ASSETS = MAX_MEDIA_ITEMS;

/**
 * The brief as the form holds it, checked in the browser with the contract's own rules (the same zod
 * pieces the API validates with, plus the brief_too_short rule), so errors show beside their fields
 * before anything is sent.
 */
export const briefFormSchema = z.object({
  brandId: z.string().min(1, "Choose a brand."),
  channel,
  topic: generatePostBody.shape.topic.refine(isTopicLongEnough, BRIEF_TOO_SHORT_MESSAGE),
  goal,
  toneOverride: z.string().trim().max(200, "The tone override can be at most 200 characters."),
  assets: z
    .array(
      z.object({
        type: postAsset.shape.type,
        // An empty row is left out when the brief is sent.
        url: z.union([z.literal(""), postAsset.shape.url], { error: "Use a full http(s) URL." }),
        description: z.string().trim().max(300, "At most 300 characters."),
      }),
    )
    .max(MAX_ASSETS),
});

export type BriefDraft = z.infer<typeof briefFormSchema>;
export type BriefAsset = BriefDraft["assets"][number];

/** The brief as the API takes it: empty optional fields left out. */
export function briefBody(brief: BriefDraft): GeneratePostInput {
  const assets = brief.assets
    .filter((asset) => asset.url.trim())
    .map((asset) => ({
      type: asset.type,
      url: asset.url.trim(),
      ...(asset.description.trim() ? { description: asset.description.trim() } : {}),
    }));
  return {
    brandId: brief.brandId,
    channel: brief.channel,
    topic: brief.topic,
    goal: brief.goal,
    ...(brief.toneOverride.trim() ? { toneOverride: brief.toneOverride.trim() } : {}),
    ...(assets.length ? { assets } : {}),
  };
}

const TOPIC_HINT = `What the post is about: at least ${MIN_TOPIC_WORDS} words and ${MIN_TOPIC_CHARS} characters.`;

export function PostBriefForm({
  brief,
  brands,
  onGenerate,
  generating,
}: {
  brief: BriefDraft;
  brands: { brandId: string; name: string; tone: string }[];
  onGenerate: (brief: BriefDraft) => void;
  generating: boolean;
}) {
  const form = useForm<BriefDraft>({
    defaultValues: brief,
    resolver: zodResolver(briefFormSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { register, handleSubmit, watch, formState } = form;
  const errors = formState.errors;
  const assets = useFieldArray({ control: form.control, name: "assets" });
  const brandId = watch("brandId");
  const topic = watch("topic") ?? "";
  const selectedChannel = watch("channel");
  const brand = brands.find((item) => item.brandId === brandId);

  return (
    <form onSubmit={handleSubmit(onGenerate)} noValidate className="space-y-4" aria-label="Brief">
      <Field label="Brand" error={errors.brandId?.message}>
        <PostSelect {...register("brandId")} aria-invalid={!!errors.brandId}>
          {brands.map((item) => (
            <option key={item.brandId} value={item.brandId}>
              {item.name}
            </option>
          ))}
        </PostSelect>
      </Field>

      <fieldset className="space-y-1.5">
        <legend className="text-sm font-medium text-slate-700">Channel</legend>
        <div className="grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1">
          {CHANNELS.map((item) => (
            <label
              key={item}
              className={`cursor-pointer rounded-md px-2 py-1.5 text-center text-sm transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
                selectedChannel === item
                  ? "bg-white font-medium text-slate-900 shadow-sm"
                  : "text-slate-700 hover:text-slate-900"
              }`}
            >
              <input type="radio" value={item} {...register("channel")} className="sr-only" />
              {CHANNEL_LABELS[item]}
            </label>
          ))}
        </div>
      </fieldset>

      <Field label="Topic" hint={TOPIC_HINT} error={errors.topic?.message}>
        <PostTextArea
          rows={3}
          maxLength={500}
          aria-invalid={!!errors.topic}
          {...register("topic")}
          placeholder="Our new Ethiopian single-origin espresso, roasted in small batches"
        />
        <span className="block text-right">
          <CharacterCount length={topic.length} limit={500} />
        </span>
      </Field>

      <Field label="Goal" error={errors.goal?.message}>
        <PostSelect {...register("goal")}>
          {GOALS.map((item) => (
            <option key={item} value={item}>
              {GOAL_LABELS[item]}
            </option>
          ))}
        </PostSelect>
      </Field>

      <Field
        label="Tone override (optional)"
        hint={brand?.tone ? `Brand tone: ${brand.tone}` : undefined}
        error={errors.toneOverride?.message}
      >
        <TextInput
          maxLength={200}
          aria-invalid={!!errors.toneOverride}
          {...register("toneOverride")}
          placeholder="e.g. playful and light"
        />
      </Field>

      <details
        className="group rounded-lg border border-slate-200 bg-slate-50/60 px-3 py-2"
        open={assets.fields.length > 0}
      >
        <summary className="cursor-pointer text-sm font-medium text-slate-700">
          Assets (optional){assets.fields.length ? ` · ${assets.fields.length}` : ""}
        </summary>
        <div className="mt-3 space-y-3">
          {assets.fields.map((asset, index) => {
            const problem = errors.assets?.[index];
            return (
              <div key={asset.id} className="space-y-2 rounded-lg border border-slate-200 bg-white p-2">
                <div className="flex gap-2">
                  <PostSelect
                    aria-label={`Asset ${index + 1} type`}
                    className="w-24"
                    {...register(`assets.${index}.type`)}
                  >
                    <option value="image">Image</option>
                    <option value="video">Video</option>
                    <option value="link">Link</option>
                  </PostSelect>
                  <TextInput
                    aria-label={`Asset ${index + 1} URL`}
                    aria-invalid={!!problem?.url}
                    type="url"
                    placeholder="https://…"
                    {...register(`assets.${index}.url`)}
                  />
                </div>
                {problem?.url?.message && (
                  <p role="alert" className="text-xs text-red-700">
                    {problem.url.message}
                  </p>
                )}
                <div className="flex gap-2">
                  <TextInput
                    aria-label={`Asset ${index + 1} description`}
                    placeholder="What it shows (optional)"
                    maxLength={300}
                    {...register(`assets.${index}.description`)}
                  />
                  <button
                    type="button"
                    onClick={() => assets.remove(index)}
                    className="rounded-md px-2 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-800"
                    aria-label={`Remove asset ${index + 1}`}
                  >
                    Remove
                  </button>
                </div>
              </div>
            );
          })}
          <button
            type="button"
            disabled={assets.fields.length >= MAX_ASSETS}
            onClick={() => assets.append({ type: "image", url: "", description: "" })}
            className="text-sm font-medium text-brand-600 hover:text-brand-700 disabled:text-slate-500"
          >
            + Add an asset {assets.fields.length >= MAX_ASSETS ? `(at most ${MAX_ASSETS})` : ""}
          </button>
        </div>
      </details>

      <Button type="submit" className="w-full" disabled={generating || !brandId}>
        {generating ? "Writing…" : "Generate draft"}
      </Button>
      {!brands.length && (
        <p className="text-sm text-slate-600">
          You have no brands yet.{" "}
          <Link href="/brands" className="font-medium text-brand-700 underline">
            Create one first
          </Link>
          .
        </p>
      )}
    </form>
  );
}
