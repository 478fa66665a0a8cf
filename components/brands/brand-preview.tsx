"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { brandPreview } from "@/lib/client/operations";
import { COLOR_PATTERN } from "@/lib/contracts/brand-rules";
import { VIDEO_ASPECT_RATIOS, type VideoAspectRatio } from "@/lib/contracts/video-rules";

/** The value, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const RATIO_CLASS: Record<VideoAspectRatio, string> = {
  "9:16": "aspect-[9/16] w-44",
  "4:5": "aspect-[4/5] w-52",
  "1:1": "aspect-square w-56",
  "16:9": "aspect-video w-full",
};

/**
 * A live frame of the brand's videos, rendered by the server's video renderer with the colours and font
 * in the form (saved or not) and the saved logo; re-rendered half a second after the last change.
 */
export function BrandPreview({
  brandId,
  logoUrl,
  primaryColor,
  secondaryColor,
  font,
}: {
  brandId: string;
  logoUrl: string | null;
  primaryColor: string;
  secondaryColor: string;
  font: string;
}) {
  const [aspectRatio, setAspectRatio] = useState<VideoAspectRatio>("9:16");
  const valid = COLOR_PATTERN.test(primaryColor) && COLOR_PATTERN.test(secondaryColor);
  // The logo's path (not its signature, which changes on every read) says when it was replaced.
  const logo = logoUrl ? logoUrl.split("?")[0] : null;
  const settled = useDebounced({ primaryColor, secondaryColor, font, aspectRatio, logo }, 500);
  const frame = useQuery({
    queryKey: ["brands", "preview", brandId, settled],
    queryFn: async ({ signal }) =>
      (
        await callApi(brandPreview, {
          params: { brandId },
          query: {
            aspectRatio: settled.aspectRatio,
            primaryColor: settled.primaryColor,
            secondaryColor: settled.secondaryColor,
            font: settled.font,
          },
          signal,
        })
      ).data,
    enabled: valid,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
  const changing = frame.isFetching || settled.primaryColor !== primaryColor || settled.font !== font;

  return (
    <figure className="space-y-2" aria-busy={changing}>
      <fieldset className="flex flex-wrap gap-1">
        <legend className="sr-only">Preview shape</legend>
        {VIDEO_ASPECT_RATIOS.map((ratio) => (
          <button
            key={ratio}
            type="button"
            aria-pressed={ratio === aspectRatio}
            onClick={() => setAspectRatio(ratio)}
            className={`rounded-md px-2 py-0.5 text-xs font-medium ${
              ratio === aspectRatio
                ? "bg-slate-900 text-white"
                : "bg-slate-100 text-slate-700 hover:bg-slate-200"
            }`}
          >
            {ratio}
          </button>
        ))}
      </fieldset>
      <div
        className={`relative mx-auto max-w-full overflow-hidden rounded-lg bg-slate-900 shadow-inner ${RATIO_CLASS[aspectRatio]}`}
      >
        {frame.data ? (
          // biome-ignore lint/performance/noImgElement: a data: URL rendered by the server, not an optimisable asset.
          <img
            src={frame.data.imageUrl}
            alt={`A ${frame.data.aspectRatio} video frame in the brand kit: caption, overlay text and logo`}
            data-testid="brand-preview-frame"
            data-aspect-ratio={frame.data.aspectRatio}
            className={`h-full w-full object-cover transition-opacity ${changing ? "opacity-60" : ""}`}
          />
        ) : (
          !frame.error && <div className="h-full w-full animate-pulse bg-slate-700" />
        )}
        {changing && frame.data && (
          <span className="absolute right-2 bottom-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white">
            Rendering…
          </span>
        )}
      </div>
      {!valid && <p className="text-xs text-slate-500">Enter both colours as #RRGGBB to see the preview.</p>}
      {frame.error && <ErrorNotice message={frame.error.message} onRetry={() => frame.refetch()} />}
      <figcaption className="text-xs text-slate-500">
        A real frame from the video renderer: caption in the primary colour, overlay text in the secondary,
        the logo in the safe corner. Unsaved changes show here first.
      </figcaption>
    </figure>
  );
}
