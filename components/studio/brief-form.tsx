"use client";

import Link from "next/link";
import type { FormEvent } from "react";
import {
  CHANNEL_LABELS,
  CharacterCount,
  GOAL_LABELS,
  PostSelect,
  PostTextArea,
} from "@/components/studio/form-controls";
import { Button, Field, TextInput } from "@/components/ui/primitives";
import { CHANNELS, type Channel, type GeneratePostInput, GOALS, type Goal } from "@/lib/contracts/posts";

export type BriefAsset = { type: "image" | "video" | "link"; url: string; description: string };

export type BriefDraft = {
  brandId: string;
  channel: Channel;
  topic: string;
  goal: Goal;
  toneOverride: string;
  assets: BriefAsset[];
};

export const MAX_ASSETS = 10;

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

export function PostBriefForm({
  brief,
  brands,
  onChange,
  onGenerate,
  generating,
}: {
  brief: BriefDraft;
  brands: { brandId: string; name: string; tone: string }[];
  onChange: (brief: BriefDraft) => void;
  onGenerate: () => void;
  generating: boolean;
}) {
  const set = <K extends keyof BriefDraft>(key: K, value: BriefDraft[K]) =>
    onChange({ ...brief, [key]: value });
  const setAsset = (index: number, asset: Partial<BriefAsset>) =>
    set(
      "assets",
      brief.assets.map((item, i) => (i === index ? { ...item, ...asset } : item)),
    );
  const brand = brands.find((item) => item.brandId === brief.brandId);

  function submit(event: FormEvent) {
    event.preventDefault();
    onGenerate();
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Brief">
      <Field label="Brand">
        <PostSelect
          value={brief.brandId}
          onChange={(event) => set("brandId", event.target.value)}
          name="brandId"
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
          {CHANNELS.map((channel) => (
            <label
              key={channel}
              className={`cursor-pointer rounded-md px-2 py-1.5 text-center text-sm transition ${
                brief.channel === channel
                  ? "bg-white font-medium text-slate-900 shadow-sm"
                  : "text-slate-600 hover:text-slate-900"
              }`}
            >
              <input
                type="radio"
                name="channel"
                value={channel}
                checked={brief.channel === channel}
                onChange={() => set("channel", channel)}
                className="sr-only"
              />
              {CHANNEL_LABELS[channel]}
            </label>
          ))}
        </div>
      </fieldset>

      <Field label="Topic" hint="What the post is about, in at least 3 words.">
        <PostTextArea
          name="topic"
          rows={3}
          maxLength={500}
          required
          value={brief.topic}
          onChange={(event) => set("topic", event.target.value)}
          placeholder="Our new Ethiopian single-origin espresso, roasted in small batches"
        />
        <div className="text-right">
          <CharacterCount length={brief.topic.length} limit={500} />
        </div>
      </Field>

      <Field label="Goal">
        <PostSelect
          name="goal"
          value={brief.goal}
          onChange={(event) => set("goal", event.target.value as Goal)}
        >
          {GOALS.map((goal) => (
            <option key={goal} value={goal}>
              {GOAL_LABELS[goal]}
            </option>
          ))}
        </PostSelect>
      </Field>

      <Field label="Tone override (optional)" hint={brand?.tone ? `Brand tone: ${brand.tone}` : undefined}>
        <TextInput
          name="toneOverride"
          maxLength={200}
          value={brief.toneOverride}
          onChange={(event) => set("toneOverride", event.target.value)}
          placeholder="e.g. playful and light"
        />
      </Field>

      <details
        className="group rounded-lg border border-slate-200 bg-slate-50/60 px-3 py-2"
        open={brief.assets.length > 0}
      >
        <summary className="cursor-pointer text-sm font-medium text-slate-700">
          Assets (optional){brief.assets.length ? ` · ${brief.assets.length}` : ""}
        </summary>
        <div className="mt-3 space-y-3">
          {brief.assets.map((asset, index) => (
            <div key={index} className="space-y-2 rounded-lg border border-slate-200 bg-white p-2">
              <div className="flex gap-2">
                <PostSelect
                  aria-label={`Asset ${index + 1} type`}
                  className="w-24"
                  value={asset.type}
                  onChange={(event) => setAsset(index, { type: event.target.value as BriefAsset["type"] })}
                >
                  <option value="image">Image</option>
                  <option value="video">Video</option>
                  <option value="link">Link</option>
                </PostSelect>
                <TextInput
                  aria-label={`Asset ${index + 1} URL`}
                  type="url"
                  placeholder="https://…"
                  value={asset.url}
                  onChange={(event) => setAsset(index, { url: event.target.value })}
                />
              </div>
              <div className="flex gap-2">
                <TextInput
                  aria-label={`Asset ${index + 1} description`}
                  placeholder="What it shows (optional)"
                  maxLength={300}
                  value={asset.description}
                  onChange={(event) => setAsset(index, { description: event.target.value })}
                />
                <button
                  type="button"
                  onClick={() =>
                    set(
                      "assets",
                      brief.assets.filter((_, i) => i !== index),
                    )
                  }
                  className="rounded-md px-2 text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-800"
                  aria-label={`Remove asset ${index + 1}`}
                >
                  Remove
                </button>
              </div>
            </div>
          ))}
          <button
            type="button"
            disabled={brief.assets.length >= MAX_ASSETS}
            onClick={() => set("assets", [...brief.assets, { type: "image", url: "", description: "" }])}
            className="text-sm font-medium text-brand-600 hover:text-brand-700 disabled:text-slate-400"
          >
            + Add an asset {brief.assets.length >= MAX_ASSETS ? `(at most ${MAX_ASSETS})` : ""}
          </button>
        </div>
      </details>

      <Button type="submit" className="w-full" disabled={generating || !brief.brandId}>
        {generating ? "Writing…" : "Generate draft"}
      </Button>
      {!brands.length && (
        <p className="text-sm text-slate-600">
          You have no brands yet.{" "}
          <Link href="/brands" className="font-medium text-brand-600 hover:underline">
            Create one first
          </Link>
          .
        </p>
      )}
    </form>
  );
}
