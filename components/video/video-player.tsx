import type { VideoAspectRatio, VideoJobView } from "@/lib/contracts/video";
import { ASPECT_CLASS } from "./video-aspect";

/**
 * At most 28rem high and never wider than its column, in the video's shape: sized by width, so the box keeps
 * the shape before the video loads. Without a known shape, the video's own once it loads.
 */
const COMPACT_SIZE: Record<VideoAspectRatio, string> = {
  "9:16": "w-[min(100%,calc(28rem*9/16))]",
  "4:5": "w-[min(100%,calc(28rem*4/5))]",
  "1:1": "w-[min(100%,28rem)]",
  "16:9": "w-full max-w-[calc(28rem*16/9)]",
};

export const compactPlayerSize = (aspectRatio: VideoAspectRatio | undefined) =>
  aspectRatio ? COMPACT_SIZE[aspectRatio] : "max-h-[28rem] max-w-full";

type PlayerJob = Pick<VideoJobView, "thumbnailUrl" | "captionsUrl" | "captions" | "aspectRatio">;

/**
 * A video player. When the video is one of the brand's own, its job gives the poster, the captions track
 * and the shape, so the box has the video's shape before a byte of it loads.
 */
export function VideoPlayer({
  url,
  job,
  className,
  testId,
}: {
  url: string;
  job: Partial<PlayerJob> | null | undefined;
  className: string;
  testId: string;
}) {
  return (
    // biome-ignore lint/a11y/useMediaCaption: the track is there when the video's job made captions; another site's video has none we know of.
    <video
      src={url}
      controls
      preload="metadata"
      poster={job?.thumbnailUrl ?? undefined}
      className={`${job?.aspectRatio ? ASPECT_CLASS[job.aspectRatio] : ""} ${className} bg-black`}
      data-testid={testId}
    >
      {job?.captionsUrl && (
        // Burned-in captions are already in the picture: the track is then for screen readers and players
        // that list it, and shows by default only when the picture has none.
        <track kind="captions" src={job.captionsUrl} label="Captions" default={!job.captions} />
      )}
    </video>
  );
}
