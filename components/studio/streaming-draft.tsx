"use client";

import { Button, Card } from "@/components/ui/primitives";
import type { PartialDraft } from "@/lib/contracts/posts";

/**
 * A draft while the model writes it: each field shows up as soon as it starts arriving, in the order the model
 * writes them (caption, hashtags, media plan). Cancel stops the stream; nothing is saved.
 */
export function StreamingDraft({ draft, onCancel }: { draft: PartialDraft | null; onCancel: () => void }) {
  const hashtags = (draft?.hashtags ?? []).filter((tag): tag is string => !!tag);
  const items = (draft?.mediaPlan?.items ?? []).filter((item) => !!item);
  return (
    <Card className="space-y-5" aria-busy="true">
      <div className="flex items-center justify-between gap-3">
        <div role="status" className="flex items-center gap-3 text-sm font-medium text-slate-700">
          <span className="size-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />
          Writing your draft in the brand&apos;s voice…
        </div>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>

      {draft?.caption === undefined ? (
        <div className="space-y-2" aria-hidden>
          {[92, 80, 86, 60].map((width) => (
            <div
              key={width}
              className="h-3 animate-pulse rounded bg-slate-100"
              style={{ width: `${width}%` }}
            />
          ))}
        </div>
      ) : (
        <section className="space-y-1.5" data-testid="stream-caption">
          <h3 className="text-sm font-medium text-slate-700">Caption</h3>
          <p className="whitespace-pre-line rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm leading-relaxed text-slate-800">
            {draft.caption}
            <span className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-brand-600 align-text-bottom" />
          </p>
        </section>
      )}

      {draft?.hashtags !== undefined && (
        <section className="space-y-1.5" data-testid="stream-hashtags">
          <h3 className="text-sm font-medium text-slate-700">Hashtags</h3>
          <p className="flex flex-wrap gap-2">
            {hashtags.map((tag) => (
              <span key={tag} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-700">
                {tag}
              </span>
            ))}
          </p>
        </section>
      )}

      {draft?.mediaPlan !== undefined && (
        <section className="space-y-1.5" data-testid="stream-media-plan">
          <h3 className="text-sm font-medium text-slate-700">Media plan</h3>
          <ol className="space-y-2 text-sm text-slate-700">
            {items.map((item, index) => (
              <li key={index} className="rounded-lg border border-slate-200 p-3">
                <span className="font-medium">
                  {index + 1}. {item?.type === "video" ? "Video" : "Image"}
                  {item?.aspectRatio ? ` · ${item.aspectRatio}` : ""}
                </span>
                {item?.description && <span className="mt-1 block text-slate-600">{item.description}</span>}
              </li>
            ))}
          </ol>
        </section>
      )}
    </Card>
  );
}
