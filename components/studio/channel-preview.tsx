"use client";

import { useState } from "react";
import { VideoPlayer } from "@/components/video/video-player";
import type { Channel, MediaPlan, PostView } from "@/lib/contracts/posts";

type PreviewPost = {
  caption: string;
  hashtags: string[];
  mediaPlan: MediaPlan;
  videoUrl: string | null;
  videoJob?: PostView["videoJob"];
};

const RATIO_CLASS: Record<MediaPlan["items"][number]["aspectRatio"], string> = {
  "1:1": "aspect-square",
  "4:5": "aspect-[4/5]",
  "9:16": "aspect-[9/16] max-h-[28rem] mx-auto",
  "16:9": "aspect-video",
};

/** Where the channel cuts the caption off behind "more". */
const FOLD: Record<Channel, number> = { instagram: 125, linkedin: 210, telegram: Number.POSITIVE_INFINITY };

function Avatar({ name }: { name: string }) {
  return (
    <span className="grid size-9 shrink-0 place-items-center rounded-full bg-brand-600 text-sm font-semibold text-white">
      {name.charAt(0).toUpperCase()}
    </span>
  );
}

function Placeholder({ item, brandName }: { item: MediaPlan["items"][number]; brandName: string }) {
  return (
    <div
      className={`relative flex w-full items-center justify-center overflow-hidden bg-gradient-to-br from-brand-600 to-slate-800 p-6 text-center text-white ${RATIO_CLASS[item.aspectRatio]}`}
      role="img"
      aria-label={item.altText}
    >
      <div className="space-y-2">
        {item.type === "video" && (
          <div className="mx-auto grid size-12 place-items-center rounded-full bg-white/20 text-xl">▶</div>
        )}
        <p className="text-lg font-semibold leading-snug">{item.overlayText ?? brandName}</p>
        <p className="text-xs text-white/70">{item.description}</p>
      </div>
    </div>
  );
}

/**
 * The post's media: its video when it has one; else the media plan's items, each its image when it has
 * one (a carousel scrolls sideways, as on the channel) or a placeholder with the item's description. A
 * channel that always shows media (Instagram) keeps its square while the plan has no item yet.
 */
function Media({
  post,
  brandName,
  required = false,
}: {
  post: PreviewPost;
  brandName: string;
  required?: boolean;
}) {
  const [shown, setShown] = useState(0);
  const items = post.mediaPlan.items;
  if (post.videoUrl) {
    return (
      <VideoPlayer url={post.videoUrl} job={post.videoJob} className="block w-full" testId="preview-video" />
    );
  }
  if (!items.length)
    return required ? (
      <div className="grid aspect-square place-items-center bg-slate-100 p-6 text-center text-sm text-slate-500">
        The post's image or video appears here.
      </div>
    ) : null;
  const current = Math.min(shown, items.length - 1);
  const item = items[current];
  return (
    <div className="relative">
      {item.imageUrl ? (
        // biome-ignore lint/performance/noImgElement: media files are served by this app's own route.
        <img
          src={item.imageUrl}
          alt={item.altText}
          data-testid="preview-image"
          className={`w-full object-cover ${RATIO_CLASS[item.aspectRatio]}`}
        />
      ) : (
        <Placeholder item={item} brandName={brandName} />
      )}
      {items.length > 1 && (
        <>
          <div className="absolute inset-x-0 bottom-2 flex justify-center gap-1">
            {items.map((_, index) => (
              <span
                key={index}
                className={`size-1.5 rounded-full shadow ${index === current ? "bg-white" : "bg-white/50"}`}
              />
            ))}
          </div>
          {current > 0 && (
            <button
              type="button"
              onClick={() => setShown(current - 1)}
              aria-label="Previous image"
              className="absolute top-1/2 left-2 grid size-7 -translate-y-1/2 place-items-center rounded-full bg-white/80 text-slate-800 shadow"
            >
              ‹
            </button>
          )}
          {current < items.length - 1 && (
            <button
              type="button"
              onClick={() => setShown(current + 1)}
              aria-label="Next image"
              className="absolute top-1/2 right-2 grid size-7 -translate-y-1/2 place-items-center rounded-full bg-white/80 text-slate-800 shadow"
            >
              ›
            </button>
          )}
        </>
      )}
    </div>
  );
}

function Caption({ text, fold, lead }: { text: string; fold: number; lead?: string }) {
  const [open, setOpen] = useState(false);
  const folded = !open && text.length > fold;
  return (
    <p className="whitespace-pre-line break-words text-sm leading-relaxed text-slate-800">
      {lead && <span className="font-semibold">{lead} </span>}
      {folded ? `${text.slice(0, fold).trimEnd()}… ` : text}
      {folded && (
        <button type="button" onClick={() => setOpen(true)} className="text-slate-500 hover:underline">
          more
        </button>
      )}
    </p>
  );
}

const Tags = ({ tags }: { tags: string[] }) =>
  tags.length ? <p className="text-sm text-sky-700">{tags.join(" ")}</p> : null;

/** The post roughly as the channel shows it: Instagram's feed card, LinkedIn's update, Telegram's channel message. */
export function PostPreview({
  channel,
  post,
  brandName,
}: {
  channel: Channel;
  post: PreviewPost;
  brandName: string;
}) {
  const handle = brandName.toLowerCase().replace(/[^a-z0-9]+/g, "");
  if (channel === "instagram") {
    return (
      <div
        data-testid="post-preview"
        data-channel="instagram"
        className="mx-auto max-w-sm overflow-hidden rounded-xl border border-slate-200 bg-white"
      >
        <div className="flex items-center gap-2 p-3">
          <Avatar name={brandName} />
          <span className="text-sm font-semibold">{handle}</span>
        </div>
        <Media post={post} brandName={brandName} required />
        <div className="space-y-1.5 p-3">
          <div className="flex gap-4 text-lg text-slate-700" aria-hidden>
            <span>♡</span>
            <span>○</span>
            <span>➤</span>
          </div>
          <Caption text={post.caption} fold={FOLD.instagram} lead={handle} />
          <Tags tags={post.hashtags} />
        </div>
      </div>
    );
  }
  if (channel === "linkedin") {
    return (
      <div
        data-testid="post-preview"
        data-channel="linkedin"
        className="mx-auto max-w-md overflow-hidden rounded-lg border border-slate-200 bg-white"
      >
        <div className="flex items-center gap-2 p-3">
          <Avatar name={brandName} />
          <div>
            <p className="text-sm font-semibold">{brandName}</p>
            <p className="text-xs text-slate-500">Now · Public</p>
          </div>
        </div>
        <div className="space-y-2 px-3 pb-3">
          <Caption text={post.caption} fold={FOLD.linkedin} />
          <Tags tags={post.hashtags} />
        </div>
        <Media post={post} brandName={brandName} />
        <div
          className="flex justify-around border-t border-slate-100 py-2 text-xs font-medium text-slate-500"
          aria-hidden
        >
          <span>Like</span>
          <span>Comment</span>
          <span>Repost</span>
          <span>Send</span>
        </div>
      </div>
    );
  }
  const [headline, ...rest] = post.caption.split("\n");
  return (
    <div
      data-testid="post-preview"
      data-channel="telegram"
      className="mx-auto max-w-md rounded-xl bg-[#dfe7ef] p-4"
    >
      <div className="overflow-hidden rounded-2xl rounded-bl-sm bg-white shadow-sm">
        <Media post={post} brandName={brandName} />
        <div className="space-y-2 p-3">
          <p className="text-sm font-semibold text-sky-700">{brandName}</p>
          <p className="whitespace-pre-line break-words text-sm leading-relaxed text-slate-800">
            <strong>{headline}</strong>
            {rest.length ? `\n${rest.join("\n")}` : ""}
          </p>
          <Tags tags={post.hashtags} />
          <p className="text-right text-xs text-slate-500">1 view · now</p>
        </div>
      </div>
    </div>
  );
}
