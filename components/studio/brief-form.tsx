"use client";

import Link from "next/link";
import { type FormEvent, useRef, useState } from "react";
import type { z } from "zod";
import {
  CHANNEL_LABELS,
  CharacterCount,
  GOAL_LABELS,
  PostSelect,
  PostTextArea,
} from "@/components/studio/form-controls";
import { Button, Field, TextInput } from "@/components/ui/primitives";
import type { BrandRole } from "@/lib/contracts/enums";
import { nativeLanguageName } from "@/lib/contracts/language-tags";
import { can } from "@/lib/contracts/permissions";
import { BRIEF_LIMITS, CHANNELS, GOALS, MIN_TOPIC_CHARS, MIN_TOPIC_WORDS } from "@/lib/contracts/post-rules";
import type { GeneratePostInput } from "@/lib/contracts/posts";
import type { BriefErrors, briefFormSchema } from "./brief-schema";

export const MAX_ASSETS = BRIEF_LIMITS.assets;

export type BriefDraft = z.input<typeof briefFormSchema>;
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
    ...(brief.languages?.length ? { languages: brief.languages } : {}),
  };
}

/**
 * The brief's check (the contract's own zod rules, in brief-schema.ts), loaded when the user starts on the
 * form rather than with the page: showing the form needs no schema.
 */
const loadBriefCheck = () => import("./brief-schema").then((schema) => schema.checkBrief);

type AssetRow = BriefAsset & { key: number };

const TOPIC_HINT = `What the post is about: at least ${MIN_TOPIC_WORDS} words and ${MIN_TOPIC_CHARS} characters.`;

export function PostBriefForm({
  brief,
  brands,
  onGenerate,
  generating,
}: {
  brief: BriefDraft;
  brands: { brandId: string; name: string; tone: string; role: BrandRole; languages?: string[] }[];
  onGenerate: (brief: BriefDraft) => void;
  generating: boolean;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const nextKey = useRef(0);
  const withKey = (asset: BriefAsset): AssetRow => ({ ...asset, key: nextKey.current++ });
  const [values, setValues] = useState(() => ({ ...brief, assets: brief.assets.map(withKey) }));
  const [errors, setErrors] = useState<BriefErrors>({});
  // Like a form library's "validate on submit, then again on every change".
  const submitted = useRef(false);
  const brandId = values.brandId;
  const topic = values.topic;
  const selectedChannel = values.channel;
  const brand = brands.find((item) => item.brandId === brandId);
  const mayWrite = brand ? can(brand.role, "post.create") : true;
  const brandLanguages = brand?.languages ?? [];
  // Every language the brand speaks is ticked until the marketer unticks some (the main one stays).
  const chosenLanguages = values.languages?.length
    ? values.languages.filter((tag) => brandLanguages.includes(tag))
    : brandLanguages;
  const toggleLanguage = (tag: string, on: boolean) =>
    update({
      ...values,
      languages: brandLanguages.filter((item) =>
        item === tag ? on : item === brandLanguages[0] || chosenLanguages.includes(item),
      ),
    });

  const draftOf = (current: typeof values): BriefDraft => ({
    ...current,
    assets: current.assets.map(({ key: _key, ...asset }) => asset),
  });

  async function revalidate(next: typeof values) {
    if (!submitted.current) return;
    const checked = (await loadBriefCheck())(draftOf(next));
    setErrors(checked.ok ? {} : checked.errors);
  }

  function update(next: typeof values) {
    setValues(next);
    void revalidate(next);
  }
  const set = <K extends "brandId" | "channel" | "topic" | "goal" | "toneOverride">(
    field: K,
    value: BriefDraft[K],
  ) => update({ ...values, [field]: value });
  const setAsset = (index: number, patch: Partial<BriefAsset>) =>
    update({
      ...values,
      assets: values.assets.map((asset, at) => (at === index ? { ...asset, ...patch } : asset)),
    });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submitted.current = true;
    const checked = (await loadBriefCheck())(draftOf(values));
    if (checked.ok) {
      setErrors({});
      onGenerate({ ...checked.brief, languages: brandLanguages.length > 1 ? chosenLanguages : [] });
      return;
    }
    setErrors(checked.errors);
    // The first field in error takes the focus, in the order the form shows them.
    const first = Object.keys(checked.errors)
      .map((name) => formRef.current?.elements.namedItem(name))
      .find((element): element is HTMLElement => element instanceof HTMLElement);
    first?.focus();
  }

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      // Start loading the check as soon as the user works in the form, so Generate never waits for it.
      onFocus={() => void loadBriefCheck()}
      noValidate
      className="space-y-4"
      aria-label="Brief"
    >
      <Field label="Brand" error={errors.brandId}>
        <PostSelect
          name="brandId"
          value={values.brandId}
          onChange={(event) => set("brandId", event.target.value)}
          aria-invalid={!!errors.brandId}
        >
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
              <input
                type="radio"
                name="channel"
                value={item}
                checked={selectedChannel === item}
                onChange={() => set("channel", item)}
                className="sr-only"
              />
              {CHANNEL_LABELS[item]}
            </label>
          ))}
        </div>
      </fieldset>

      {brandLanguages.length > 1 && (
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-slate-700">Languages</legend>
          <p className="text-xs text-slate-600">
            One draft per language, each written in it in the brand's voice.
          </p>
          <div className="flex flex-wrap gap-2">
            {brandLanguages.map((tag, index) => (
              <label
                key={tag}
                className="flex items-center gap-1.5 rounded-md border border-slate-200 px-2 py-1 text-sm"
              >
                <input
                  type="checkbox"
                  name="languages"
                  value={tag}
                  checked={chosenLanguages.includes(tag)}
                  disabled={index === 0}
                  onChange={(event) => toggleLanguage(tag, event.target.checked)}
                />
                <span lang={tag}>{nativeLanguageName(tag)}</span>
                <span className="text-xs text-slate-500">{tag}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <Field label="Topic" hint={TOPIC_HINT} error={errors.topic}>
        <PostTextArea
          rows={3}
          maxLength={BRIEF_LIMITS.topic}
          aria-invalid={!!errors.topic}
          name="topic"
          value={topic}
          onChange={(event) => set("topic", event.target.value)}
          placeholder="Our new Ethiopian single-origin espresso, roasted in small batches"
        />
        <span className="block text-right">
          <CharacterCount length={topic.length} limit={BRIEF_LIMITS.topic} />
        </span>
      </Field>

      <Field label="Goal" error={errors.goal}>
        <PostSelect
          name="goal"
          value={values.goal}
          onChange={(event) => set("goal", event.target.value as BriefDraft["goal"])}
        >
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
        error={errors.toneOverride}
      >
        <TextInput
          maxLength={BRIEF_LIMITS.toneOverride}
          aria-invalid={!!errors.toneOverride}
          name="toneOverride"
          value={values.toneOverride}
          onChange={(event) => set("toneOverride", event.target.value)}
          placeholder="e.g. playful and light"
        />
      </Field>

      <details
        className="group rounded-lg border border-slate-200 bg-slate-50/60 px-3 py-2"
        open={values.assets.length > 0}
      >
        <summary className="cursor-pointer text-sm font-medium text-slate-700">
          Assets (optional){values.assets.length ? ` · ${values.assets.length}` : ""}
        </summary>
        <div className="mt-3 space-y-3">
          {values.assets.map((asset, index) => {
            const urlProblem = errors[`assets.${index}.url`];
            const descriptionProblem = errors[`assets.${index}.description`];
            return (
              <div key={asset.key} className="space-y-2 rounded-lg border border-slate-200 bg-white p-2">
                <div className="flex gap-2">
                  <PostSelect
                    aria-label={`Asset ${index + 1} type`}
                    className="w-24"
                    name={`assets.${index}.type`}
                    value={asset.type}
                    onChange={(event) => setAsset(index, { type: event.target.value as BriefAsset["type"] })}
                  >
                    <option value="image">Image</option>
                    <option value="video">Video</option>
                    <option value="link">Link</option>
                  </PostSelect>
                  <TextInput
                    aria-label={`Asset ${index + 1} URL`}
                    aria-invalid={!!urlProblem}
                    type="url"
                    placeholder="https://…"
                    name={`assets.${index}.url`}
                    value={asset.url}
                    onChange={(event) => setAsset(index, { url: event.target.value })}
                  />
                </div>
                {urlProblem && (
                  <p role="alert" className="text-xs text-red-700">
                    {urlProblem}
                  </p>
                )}
                <div className="flex gap-2">
                  <TextInput
                    aria-label={`Asset ${index + 1} description`}
                    placeholder="What it shows (optional)"
                    maxLength={BRIEF_LIMITS.assetDescription}
                    aria-invalid={!!descriptionProblem}
                    name={`assets.${index}.description`}
                    value={asset.description}
                    onChange={(event) => setAsset(index, { description: event.target.value })}
                  />
                  <button
                    type="button"
                    onClick={() =>
                      update({ ...values, assets: values.assets.filter((_, at) => at !== index) })
                    }
                    className="rounded-md px-2 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-800"
                    aria-label={`Remove asset ${index + 1}`}
                  >
                    Remove
                  </button>
                </div>
                {descriptionProblem && (
                  <p role="alert" className="text-xs text-red-700">
                    {descriptionProblem}
                  </p>
                )}
              </div>
            );
          })}
          <button
            type="button"
            disabled={values.assets.length >= MAX_ASSETS}
            onClick={() =>
              update({
                ...values,
                assets: [...values.assets, withKey({ type: "image", url: "", description: "" })],
              })
            }
            className="text-sm font-medium text-brand-600 hover:text-brand-700 disabled:text-slate-500"
          >
            + Add an asset {values.assets.length >= MAX_ASSETS ? `(at most ${MAX_ASSETS})` : ""}
          </button>
        </div>
      </details>

      <Button type="submit" className="w-full" disabled={generating || !brandId || !mayWrite}>
        {generating ? "Writing…" : "Generate draft"}
      </Button>
      {brand && !mayWrite && (
        <p role="note" className="text-sm text-slate-600">
          You are a {brand.role} of {brand.name}: an editor or owner writes drafts.
        </p>
      )}
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
