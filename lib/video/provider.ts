import type { VideoAspectRatio, VideoMode } from "@/lib/contracts/video";
import type { ErrorCode } from "@/lib/errors/error-codes";
import type { SceneImageSource } from "./local/scene-images";

export type RenderRequest = {
  jobId: string;
  /** 1 for the first run of a job, 2 for its first retry, … */
  attempt: number;
  script: string;
  /** Style or length guidance (the job's brief, or its reference video's). */
  brief: string | null;
  mode: VideoMode;
  /** The frame's shape; the short side is 720 px. */
  aspectRatio: VideoAspectRatio;
  brand: {
    name: string;
    language: string;
    primaryColor: string;
    secondaryColor: string;
    /** Media key of the trained avatar: a 512×512 transparent PNG. Required in avatar mode. */
    avatarFramesKey: string | null;
    /** The brand kit (local renderer): font id, logo and music media keys, TTS voice (null: TTS_VOICE). */
    font?: string;
    logoKey?: string | null;
    musicKey?: string | null;
    ttsVoice?: string | null;
  };
  /** Burned-in captions (default true). */
  captions?: boolean;
  /** What the post gives the scenes: its images (media plan first, then assets) and call to action. */
  visuals?: { images: SceneImageSource[]; callToAction: string | null };
};

/** Providers store each job's files under this media folder, so they can be removed together. */
export const videoMediaPrefix = (jobId: string) => `videos/${jobId}`;

export type RenderResult = {
  /** Media-storage keys of the finished MP4 and its JPEG poster. */
  videoKey: string;
  posterKey: string;
  durationSeconds: number;
  /** The captions sidecar (.vtt), when the render made one. */
  captionsKey?: string | null;
  /** The voice that spoke: the engine and its voice (`espeak-ng:es`, `openai:nova`); null without one. */
  voice?: string | null;
  /** What the video lacks but succeeded without (no voice, a skipped image), for the user. */
  warnings?: string[];
};

/**
 * A render that no retry can fix (the avatar image is gone, the script has no words): the job fails at
 * once with this code instead of being tried again.
 */
export class UnrenderableError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "UnrenderableError";
  }
}

export type ProviderHealth = { ok: true } | { ok: false; reason: string; retryAfterSeconds?: number };

/**
 * A video provider: the built-in local renderer, or an adapter for a hosted API. The job runner only
 * talks to this interface; a hosted adapter maps its own states onto `onProgress` and copies the
 * finished file into media storage, because hosted URLs expire.
 */
export interface VideoProvider {
  readonly name: string;
  /** Whether the provider can take a job now; POST /api/video/jobs answers provider_unavailable if not. */
  checkHealth(): Promise<ProviderHealth>;
  /** Seconds a render of this script is expected to take, for estimatedSeconds before it starts. */
  estimateSeconds(request: Pick<RenderRequest, "script" | "brief">): number;
  /**
   * Makes the video. Reports progress as 0–100 of the render. Stops at once, rejecting, when `signal`
   * aborts (a cancel, or the queue taking the job away).
   */
  render(
    request: RenderRequest,
    options: { signal: AbortSignal; onProgress: (percent: number) => void },
  ): Promise<RenderResult>;
}
