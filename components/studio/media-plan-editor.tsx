"use client";

import { useMutation } from "@tanstack/react-query";
import { type ChangeEvent, useRef, useState } from "react";
import { PostTextArea } from "@/components/studio/form-controls";
import { ErrorNotice } from "@/components/ui/primitives";
import { type ApiClientError, callApi } from "@/lib/client/api-client";
import { deleteMediaImage, generateMediaImage, uploadMediaImage } from "@/lib/client/operations";
import { KIT_UPLOAD_FIELD, MEDIA_IMAGE_LIMITS } from "@/lib/contracts/brand-kit-rules";
import { mediaFormatFor } from "@/lib/contracts/post-rules";
import type { MediaPlan, PostView } from "@/lib/contracts/posts";

const FORMAT_LABELS: Record<MediaPlan["format"], string> = {
  text_only: "Text only",
  single_image: "Single image",
  carousel: "Carousel",
  video: "Video",
};

const RATIO_CLASS: Record<MediaPlan["items"][number]["aspectRatio"], string> = {
  "1:1": "aspect-square",
  "4:5": "aspect-[4/5]",
  "9:16": "aspect-[9/16]",
  "16:9": "aspect-video",
};

type Item = MediaPlan["items"][number];

/** What a new draft's background model image is doing; the branded card shows meanwhile. */
const IMAGE_JOB_LABELS: Record<NonNullable<Item["imageJob"]>["state"], string> = {
  pending: "Card for now; the model's image is queued.",
  generating: "Card for now; the model is making the image…",
  ready: "Made by the image model.",
  failed: "Model image failed.",
};
type ImageAction =
  | { index: number; kind: "generate" | "delete" }
  | { index: number; kind: "upload"; file: File };

/** The image operations on one saved post's media items; each answers the post, which replaces the cached one. */
function useImageActions(postId: string, onPost: (post: PostView) => void) {
  return useMutation<PostView, ApiClientError, ImageAction>({
    mutationFn: async (action) => {
      const params = { postId, index: String(action.index) };
      if (action.kind !== "upload") {
        const operation =
          action.kind === "generate"
            ? callApi(generateMediaImage, { params })
            : callApi(deleteMediaImage, { params });
        return (await operation).data;
      }
      const form = new FormData();
      form.append(KIT_UPLOAD_FIELD, action.file);
      return (await callApi(uploadMediaImage, { params, body: form })).data;
    },
    onSuccess: onPost,
  });
}

function ItemImage({
  item,
  index,
  busy,
  locked,
  onAction,
}: {
  item: Item;
  index: number;
  busy: ImageAction["kind"] | null;
  locked: boolean;
  onAction: (action: ImageAction) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > MEDIA_IMAGE_LIMITS.maxBytes) {
      setTooLarge(`"${file.name}" is larger than 5 MB.`);
      return;
    }
    setTooLarge(null);
    onAction({ index, kind: "upload", file });
  }
  const working = item.imageJob?.state === "pending" || item.imageJob?.state === "generating";
  const disabled = locked || busy !== null;
  const small = "rounded px-2 py-1 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50";
  return (
    <div className="flex gap-3">
      <div
        className={`relative w-24 shrink-0 overflow-hidden rounded-md border border-slate-200 bg-slate-100 ${RATIO_CLASS[item.aspectRatio]}`}
      >
        {item.imageUrl ? (
          // biome-ignore lint/performance/noImgElement: media files are served by this app's own route.
          <img
            src={item.imageUrl}
            alt={item.altText}
            data-testid={`media-image-${index}`}
            className="h-full w-full object-cover"
          />
        ) : (
          <span className="absolute inset-0 grid place-items-center p-1 text-center text-[11px] text-slate-600">
            No image
          </span>
        )}
        {busy ? (
          <span className="absolute inset-0 grid place-items-center bg-white/70 text-[11px] font-medium text-slate-700">
            {busy === "generate" ? "Making…" : busy === "upload" ? "Uploading…" : "Removing…"}
          </span>
        ) : (
          working && (
            <span className="absolute inset-x-0 bottom-0 animate-pulse bg-white/85 px-1 py-0.5 text-center text-[10px] font-medium text-slate-800">
              {item.imageJob?.state === "pending" ? "Queued…" : "Making…"}
            </span>
          )
        )}
      </div>
      <div className="flex min-w-0 flex-col items-start gap-1">
        {item.imageJob && (
          <span
            role="status"
            data-testid={`media-image-state-${index}`}
            data-state={item.imageJob.state}
            className={`text-xs ${item.imageJob.state === "failed" ? "text-red-700" : "text-slate-600"}`}
          >
            {IMAGE_JOB_LABELS[item.imageJob.state]}
            {item.imageJob.error ? ` ${item.imageJob.error}` : ""}
          </span>
        )}
        <button
          type="button"
          disabled={disabled}
          onClick={() => onAction({ index, kind: "generate" })}
          className={`${small} bg-slate-900 text-white hover:bg-slate-700`}
        >
          {item.imageUrl ? "Regenerate image" : "Generate image"}
        </button>
        <button
          type="button"
          disabled={disabled}
          onClick={() => input.current?.click()}
          className={`${small} border border-slate-300 text-slate-700 hover:bg-slate-100`}
        >
          Upload image
        </button>
        {item.imageUrl && (
          <button
            type="button"
            disabled={disabled}
            onClick={() => onAction({ index, kind: "delete" })}
            className={`${small} text-red-700 hover:bg-red-50`}
          >
            Remove image
          </button>
        )}
        <input
          ref={input}
          type="file"
          accept={MEDIA_IMAGE_LIMITS.mimeTypes.join(",")}
          aria-label={`Image file for media item ${index + 1}`}
          className="hidden"
          onChange={onFile}
        />
        {tooLarge && <span className="text-xs text-red-700">{tooLarge}</span>}
      </div>
    </div>
  );
}

/**
 * The media plan's items, with their description and alt text editable; the format follows the items.
 * Image items get their picture: generated (an image model, or a branded card drawn by the server),
 * uploaded or removed at once, on the saved post (so not while the plan itself has unsaved edits).
 */
export function PostMediaPlan({
  plan,
  onChange,
  postId,
  planSaved = true,
  onPost,
}: {
  plan: MediaPlan;
  onChange: (plan: MediaPlan) => void;
  postId?: string;
  /** False while the plan has edits that are not saved: image actions address saved items by position. */
  planSaved?: boolean;
  onPost?: (post: PostView) => void;
}) {
  const update = (items: Item[]) => onChange({ format: mediaFormatFor(items), items });
  const edit = (index: number, change: Partial<Item>) =>
    update(plan.items.map((item, i) => (i === index ? { ...item, ...change } : item)));
  const actions = useImageActions(postId ?? "", (post) => onPost?.(post));
  const [queue, setQueue] = useState<number[]>([]);
  const images = plan.items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => item.type === "image");
  const missing = images.filter(({ item }) => !item.imageUrl).map(({ index }) => index);

  /** Generates the missing images one after another (each call answers the whole post). */
  async function generateAll() {
    setQueue(missing);
    for (const index of missing) {
      try {
        await actions.mutateAsync({ index, kind: "generate" });
      } catch {
        break;
      } finally {
        setQueue((current) => current.filter((queued) => queued !== index));
      }
    }
  }
  const busyIndex = actions.isPending ? actions.variables?.index : undefined;
  const canAct = !!postId && !!onPost;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">Media plan</span>
        <div className="flex items-center gap-2">
          {canAct && missing.length > 0 && (
            <button
              type="button"
              onClick={generateAll}
              disabled={!planSaved || actions.isPending}
              className="rounded-md bg-brand-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {queue.length
                ? `Making images… (${missing.length - queue.length + 1}/${missing.length})`
                : missing.length === images.length
                  ? "Generate images"
                  : "Generate missing images"}
            </button>
          )}
          <span
            data-testid="media-format"
            className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600"
          >
            {FORMAT_LABELS[plan.format]}
          </span>
        </div>
      </div>
      {!plan.items.length && <p className="text-sm text-slate-500">A text-only post: no images or video.</p>}
      {canAct && !planSaved && images.length > 0 && (
        <p className="text-xs text-amber-800">
          Save the media plan's changes to generate or upload its images.
        </p>
      )}
      {actions.error && (
        <ErrorNotice
          message={actions.error.message}
          onRetry={
            actions.error.retryable && actions.variables ? () => actions.mutate(actions.variables) : undefined
          }
        />
      )}
      <ol className="space-y-3">
        {plan.items.map((item, index) => (
          <li key={index} className="space-y-2 rounded-lg border border-slate-200 p-3">
            <div className="flex items-center justify-between gap-2 text-xs text-slate-500">
              <span>
                <span className="font-medium text-slate-700">
                  {index + 1}. {item.type === "video" ? "Video" : "Image"}
                </span>{" "}
                · {item.aspectRatio}
                {item.overlayText ? ` · text on image: “${item.overlayText}”` : ""}
              </span>
              <button
                type="button"
                onClick={() => update(plan.items.filter((_, i) => i !== index))}
                className="rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
                aria-label={`Remove media item ${index + 1}`}
              >
                Remove
              </button>
            </div>
            {canAct && item.type === "image" && (
              <ItemImage
                item={item}
                index={index}
                locked={!planSaved || (actions.isPending && busyIndex !== index)}
                busy={busyIndex === index ? (actions.variables?.kind ?? null) : null}
                onAction={(action) => actions.mutate(action)}
              />
            )}
            <PostTextArea
              aria-label={`Media item ${index + 1} description`}
              rows={3}
              // As tall as its text (browsers without field-sizing keep the three rows).
              className="field-sizing-content min-h-[4.5rem]"
              maxLength={600}
              value={item.description}
              onChange={(event) => edit(index, { description: event.target.value })}
            />
            <div className="space-y-1">
              <span className="text-xs font-medium text-slate-600">Alt text</span>
              <PostTextArea
                aria-label={`Media item ${index + 1} alt text`}
                rows={2}
                className="field-sizing-content min-h-[3.25rem]"
                maxLength={400}
                value={item.altText}
                onChange={(event) => edit(index, { altText: event.target.value })}
              />
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
