"use client";

import { PostTextArea } from "@/components/studio/form-controls";
import { mediaFormatFor } from "@/lib/contracts/post-rules";
import type { MediaPlan } from "@/lib/contracts/posts";

const FORMAT_LABELS: Record<MediaPlan["format"], string> = {
  text_only: "Text only",
  single_image: "Single image",
  carousel: "Carousel",
  video: "Video",
};

type Item = MediaPlan["items"][number];

/** The media plan's items, with their description and alt text editable; the format follows the items. */
export function PostMediaPlan({ plan, onChange }: { plan: MediaPlan; onChange: (plan: MediaPlan) => void }) {
  const update = (items: Item[]) => onChange({ format: mediaFormatFor(items), items });
  const edit = (index: number, change: Partial<Item>) =>
    update(plan.items.map((item, i) => (i === index ? { ...item, ...change } : item)));

  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <span className="text-sm font-medium text-slate-700">Media plan</span>
        <span
          data-testid="media-format"
          className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600"
        >
          {FORMAT_LABELS[plan.format]}
        </span>
      </div>
      {!plan.items.length && <p className="text-sm text-slate-500">A text-only post: no images or video.</p>}
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
            <PostTextArea
              aria-label={`Media item ${index + 1} description`}
              rows={3}
              maxLength={600}
              value={item.description}
              onChange={(event) => edit(index, { description: event.target.value })}
            />
            <div className="space-y-1">
              <span className="text-xs font-medium text-slate-600">Alt text</span>
              <PostTextArea
                aria-label={`Media item ${index + 1} alt text`}
                rows={2}
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
