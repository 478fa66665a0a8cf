"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Button, Card, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { generateVideo } from "@/lib/client/operations";
import { brandQueries, postQueries } from "@/lib/client/queries";
import type { BrandResponse } from "@/lib/contracts/brands";
import { can } from "@/lib/contracts/permissions";
import type { GenerateVideoInput } from "@/lib/contracts/video";
import {
  defaultVideoAspectRatio,
  SCRIPT_MAX_CHARS,
  SCRIPT_MIN_CHARS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_BRIEF_MAX_CHARS,
  type VideoAspectRatio,
  type VideoMode,
} from "@/lib/contracts/video-rules";
import { ASPECT_LABEL } from "./video-aspect";

/** Why avatar mode cannot be picked for this brand now, or null when it can. */
function avatarBlocker(brand: BrandResponse | undefined) {
  if (!brand) return null;
  switch (brand.avatarStatus) {
    case "ready":
      return null;
    case "training":
      return "The avatar is still training.";
    case "failed":
      return "The avatar training failed; upload a new image on the brand page.";
    default:
      return "This brand has no avatar yet; upload one on the brand page.";
  }
}

function fieldError(error: ApiClientError | null, field: string) {
  if (error?.code !== "invalid_request" || !Array.isArray(error.details)) return undefined;
  return (error.details as { path: string; message: string }[]).find((issue) => issue.path === field)
    ?.message;
}

const CHANNEL_NAME = { instagram: "Instagram", linkedin: "LinkedIn", telegram: "Telegram" } as const;

const ASPECT_USE: Record<VideoAspectRatio, string> = {
  "9:16": "Reels, Stories, Shorts",
  "4:5": "Instagram and LinkedIn feeds",
  "1:1": "Square feed posts",
  "16:9": "Telegram, YouTube, the web",
};

/** A small outline of the frame, so the choice is visible at a glance. */
function ShapeIcon({ ratio }: { ratio: VideoAspectRatio }) {
  const [w, h] = ratio.split(":").map(Number);
  const scale = 28 / Math.max(w, h);
  return (
    <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center">
      <span
        className="block rounded-sm border-2 border-current"
        style={{ width: Math.round(w * scale), height: Math.round(h * scale) }}
      />
    </span>
  );
}

function QuotaNotice({ error }: { error: ApiClientError }) {
  const details = error.details as { limit: number; used: number; resetsAt: string } | undefined;
  return (
    <div role="alert" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
      <p>{error.message}</p>
      {details && (
        <p className="mt-1 text-amber-800">
          {details.used} of {details.limit} used · resets {new Date(details.resetsAt).toLocaleDateString()}
        </p>
      )}
    </div>
  );
}

export function VideoJobForm() {
  const router = useRouter();
  const postId = useSearchParams().get("postId");
  const [chosenBrandId, setChosenBrandId] = useState<string>("");
  const [mode, setMode] = useState<VideoMode>("regular");
  // null: the default, which follows the post's channel (a script: 16:9).
  const [aspectRatio, setAspectRatio] = useState<VideoAspectRatio | null>(null);
  const [script, setScript] = useState("");
  const [brief, setBrief] = useState("");
  const [captions, setCaptions] = useState(true);

  const brands = useQuery({ ...brandQueries.list(), select: (list) => list.items });
  const post = useQuery({ ...postQueries.detail(postId ?? ""), enabled: Boolean(postId) });
  const create = useMutation({
    mutationFn: async (request: GenerateVideoInput) => (await callApi(generateVideo, { body: request })).data,
    onSuccess: (created) => router.push(`/videos/${created.jobId}`),
  });

  if (brands.isPending || (postId && post.isPending)) {
    return <p className="text-sm text-slate-500">Loading…</p>;
  }
  if (brands.error) return <ErrorNotice message={brands.error.message} onRetry={() => brands.refetch()} />;
  if (post.error) return <ErrorNotice message={post.error.message} onRetry={() => post.refetch()} />;
  if (brands.data.length === 0) {
    return (
      <Card className="py-10 text-center">
        <h2 className="font-semibold">Set up a brand first</h2>
        <p className="mt-2 text-sm text-slate-600">A video uses the brand&apos;s name, colours and voice.</p>
        <Link href="/brands" className="mt-4 inline-block text-sm font-medium text-brand-600 hover:underline">
          Go to brands
        </Link>
      </Card>
    );
  }

  const brandId = post.data?.brandId ?? (chosenBrandId || brands.data[0].brandId);
  const brand = brands.data.find((item) => item.brandId === brandId);
  const avatarProblem = avatarBlocker(brand);
  const error = create.error instanceof ApiClientError ? create.error : null;
  const scriptLength = script.trim().length;
  const defaultRatio = defaultVideoAspectRatio(post.data?.channel ?? null);
  const chosenRatio = aspectRatio ?? defaultRatio;

  const request = (): GenerateVideoInput => ({
    brandId,
    mode: avatarProblem ? "regular" : mode,
    ...(aspectRatio ? { aspectRatio } : {}),
    ...(post.data ? { postId: post.data.postId } : { script }),
    brief: brief.trim() || undefined,
    captions,
  });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    create.mutate(request());
  }

  return (
    <form onSubmit={onSubmit} className="space-y-6">
      <Card className="space-y-5">
        <Field label="Brand">
          <select
            name="brandId"
            value={brandId}
            disabled={Boolean(post.data)}
            onChange={(event) => setChosenBrandId(event.target.value)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm disabled:bg-slate-50"
          >
            {brands.data.map((item) => (
              <option key={item.brandId} value={item.brandId}>
                {item.name}
              </option>
            ))}
          </select>
        </Field>

        {post.data ? (
          <div className="space-y-1.5">
            <span className="text-sm font-medium text-slate-700">From the post</span>
            <p
              data-testid="video-source-post"
              className="max-h-40 overflow-auto whitespace-pre-line rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700"
            >
              {post.data.caption}
            </p>
            <span className="block text-xs text-slate-500">
              The caption becomes the script; hashtags, links, emoji and feed-only lines (swipe, link in bio)
              are left out.{" "}
              <Link href="/videos/new" className="text-brand-700 underline">
                Write a script instead
              </Link>
            </span>
          </div>
        ) : (
          <Field
            label="Script"
            error={fieldError(error, "script")}
            hint={`${scriptLength} / ${SCRIPT_MAX_CHARS} characters · at least ${SCRIPT_MIN_CHARS}. Each sentence or two becomes a scene.`}
          >
            <textarea
              name="script"
              required
              minLength={SCRIPT_MIN_CHARS}
              maxLength={SCRIPT_MAX_CHARS}
              rows={6}
              value={script}
              onChange={(event) => setScript(event.target.value)}
              placeholder="Fresh beans, roasted every morning. Come in, say hi, and taste the difference."
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
            />
          </Field>
        )}

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Mode</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {(["regular", "avatar"] as const).map((option) => {
              const disabled = option === "avatar" && avatarProblem !== null;
              return (
                <label
                  key={option}
                  className={`flex cursor-pointer gap-3 rounded-lg border p-3 text-sm ${
                    mode === option && !disabled
                      ? "border-brand-500 bg-brand-50"
                      : "border-slate-200 bg-white"
                  } ${disabled ? "cursor-not-allowed opacity-60" : ""}`}
                >
                  <input
                    type="radio"
                    name="mode"
                    value={option}
                    checked={mode === option && !disabled}
                    disabled={disabled}
                    onChange={() => setMode(option)}
                  />
                  <span>
                    <span className="block font-medium">{option === "regular" ? "Regular" : "Avatar"}</span>
                    <span className="block text-slate-600">
                      {option === "regular"
                        ? "The post's images in motion (or the brand's colours), captions, logo and music, with a voice-over."
                        : (avatarProblem ?? "The brand's avatar presents the script.")}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Shape</legend>
          <p className="text-xs text-slate-600">
            Default for{" "}
            {post.data
              ? `${post.data.channel === "instagram" ? "an" : "a"} ${CHANNEL_NAME[post.data.channel]} post`
              : "a script"}
            : {ASPECT_LABEL[defaultRatio]}. The short side is 720 px.
          </p>
          <div className="grid gap-2 sm:grid-cols-2">
            {VIDEO_ASPECT_RATIOS.map((ratio) => (
              <label
                key={ratio}
                className={`flex cursor-pointer items-center gap-2 rounded-lg border p-2.5 text-sm focus-within:ring-2 focus-within:ring-brand-500 ${
                  chosenRatio === ratio ? "border-brand-500 bg-brand-50" : "border-slate-200 bg-white"
                }`}
              >
                <input
                  type="radio"
                  name="aspectRatio"
                  value={ratio}
                  checked={chosenRatio === ratio}
                  onChange={() => setAspectRatio(ratio === defaultRatio ? null : ratio)}
                />
                <ShapeIcon ratio={ratio} />
                <span>
                  <span className="block font-medium">
                    {ASPECT_LABEL[ratio]}
                    {ratio === defaultRatio && <span className="font-normal text-slate-600"> · default</span>}
                  </span>
                  <span className="block text-xs text-slate-600">{ASPECT_USE[ratio]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        <Field
          label="Brief (optional)"
          error={fieldError(error, "brief")}
          hint="Style or pace, e.g. “short and snappy” or “slow and calm”."
        >
          <TextInput
            name="brief"
            maxLength={VIDEO_BRIEF_MAX_CHARS}
            value={brief}
            onChange={(event) => setBrief(event.target.value)}
          />
        </Field>

        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="captions"
            className="mt-1"
            checked={captions}
            onChange={(event) => setCaptions(event.target.checked)}
          />
          <span>
            <span className="font-medium text-slate-700">Captions in the picture</span>
            <span className="block text-slate-500">
              Each phrase shows while it is spoken: most social video is watched muted. A captions file comes
              with the video either way.
            </span>
          </span>
        </label>
      </Card>

      {error?.code === "quota_exceeded" ? (
        <QuotaNotice error={error} />
      ) : (
        error && (
          <ErrorNotice
            message={error.message}
            onRetry={error.retryable ? () => create.mutate(request()) : undefined}
          />
        )
      )}

      <div className="flex items-center gap-3">
        <Button
          type="submit"
          disabled={
            create.isPending || create.isSuccess || (brand ? !can(brand.role, "video.create") : false)
          }
        >
          {create.isPending || create.isSuccess ? "Starting…" : "Make the video"}
        </Button>
        {brand && !can(brand.role, "video.create") && (
          <span role="note" className="text-sm text-slate-600">
            You are a {brand.role} of {brand.name}: an editor or owner makes videos.
          </span>
        )}
        <Link href="/videos" className="text-sm text-slate-600 hover:underline">
          Cancel
        </Link>
      </div>
    </form>
  );
}
