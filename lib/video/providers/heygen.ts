/**
 * HeyGen adapter. Request and response shapes as HeyGen documents them (checked 2026-11):
 * - Upload a talking photo: `POST {upload host}/v1/talking_photo`, raw image body with
 *   `Content-Type: image/jpeg|image/png`, answers `{code: 100, data: {talking_photo_id, talking_photo_url}}`
 *   (docs.heygen.com/docs/create-personalized-avatars-with-photos, /reference/upload-talking-photo).
 * - Generate: `POST /v2/video/generate` with `video_inputs: [{character: {type: "talking_photo",
 *   talking_photo_id}, voice: {type: "text", input_text, voice_id}}]`, `dimension: {width, height}` and
 *   `callback_id`; answers `{error: null, data: {video_id}}` (docs.heygen.com discussions of
 *   /v2/video/generate; the `heygen` crate's VideoResponse).
 * - Status: `GET /v1/video_status.get?video_id=` answers `{code, data: {id, status, video_url,
 *   thumbnail_url, duration, error: {code, message, detail}, callback_id}}` with status pending, waiting,
 *   processing, completed or failed; `video_url` expires after 7 days (the `heygen` crate's
 *   VideoDetails; docs.heygen.com discussions of video_status.get).
 * - Auth: the `X-Api-Key` header. Webhooks (`avatar_video.success` / `avatar_video.fail`, body
 *   `{event_type, event_data: {video_id, url, callback_id}}`) are registered per account, not per video
 *   (docs.heygen.com/docs/using-heygens-webhook-events); we treat them as hints only.
 */
import { getEnv } from "@/lib/config";
import { ProviderError, providerJson } from "./provider-http";
import type { HostedVideoProvider, ProviderJobState, ProviderPoll } from "./types";

const NAME = "heygen";
/** A stock HeyGen voice; HeyGen requires one for text input. */
const DEFAULT_VOICE_ID = "1bd001e7e50f421d891986aad5158bc8";

type StatusAnswer = {
  code?: number;
  data?: {
    id?: string;
    status?: string;
    video_url?: string | null;
    thumbnail_url?: string | null;
    duration?: number | null;
    error?: { code?: number | string; message?: string; detail?: string } | null;
  };
};

function settings() {
  const env = getEnv();
  if (!env.HEYGEN_API_KEY) throw new ProviderError(NAME, "HEYGEN_API_KEY is not set.", { transient: false });
  return { key: env.HEYGEN_API_KEY, api: env.HEYGEN_BASE_URL, upload: env.HEYGEN_UPLOAD_BASE_URL };
}

const STATES: Record<string, ProviderJobState> = {
  pending: "pending",
  waiting: "pending",
  processing: "running",
  completed: "succeeded",
  failed: "failed",
};

export const heygenProvider: HostedVideoProvider = {
  name: NAME,

  async uploadAvatar(image, contentType) {
    const { key, upload } = settings();
    const answer = await providerJson<{ data?: { talking_photo_id?: string } }>(
      NAME,
      `${upload}/v1/talking_photo`,
      {
        method: "POST",
        headers: { "X-Api-Key": key, "Content-Type": contentType },
        body: new Uint8Array(image),
      },
    );
    const id = answer.data?.talking_photo_id;
    if (!id) throw new ProviderError(NAME, "HeyGen did not return a talking_photo_id.", { transient: true });
    return id;
  },

  async submit(job) {
    const { key, api } = settings();
    if (!job.brand.avatarProviderRef) {
      throw new ProviderError(NAME, "The brand has no HeyGen talking photo.", { transient: false });
    }
    const answer = await providerJson<{ error?: unknown; data?: { video_id?: string } }>(
      NAME,
      `${api}/v2/video/generate`,
      {
        method: "POST",
        headers: { "X-Api-Key": key, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          video_inputs: [
            {
              character: { type: "talking_photo", talking_photo_id: job.brand.avatarProviderRef },
              voice: { type: "text", input_text: job.script, voice_id: DEFAULT_VOICE_ID },
            },
          ],
          dimension: { width: 1280, height: 720 },
          title: `${job.brand.name} ${job.jobId}`,
          callback_id: job.jobId,
        }),
      },
    );
    const id = answer.data?.video_id;
    if (!id) throw new ProviderError(NAME, "HeyGen did not return a video_id.", { transient: true });
    return id;
  },

  async poll(providerJobId): Promise<ProviderPoll> {
    const { key, api } = settings();
    const answer = await providerJson<StatusAnswer>(
      NAME,
      `${api}/v1/video_status.get?video_id=${encodeURIComponent(providerJobId)}`,
      { headers: { "X-Api-Key": key, Accept: "application/json" } },
    );
    const data = answer.data ?? {};
    const state = STATES[data.status ?? ""] ?? "pending";
    return {
      state,
      progress: state === "running" ? 50 : undefined,
      resultUrl: data.video_url ?? undefined,
      thumbnailUrl: data.thumbnail_url ?? undefined,
      durationSeconds: data.duration ?? undefined,
      error:
        state === "failed"
          ? (data.error?.detail ?? data.error?.message ?? "HeyGen gave no reason.")
          : undefined,
    };
  },

  parseWebhook({ body }) {
    const event = JSON.parse(body) as { event_type?: string; event_data?: { video_id?: string } };
    const videoId = event.event_data?.video_id;
    if (!videoId) return null;
    if (event.event_type === "avatar_video.success")
      return { providerJobId: videoId, claimedState: "succeeded" };
    if (event.event_type === "avatar_video.fail") return { providerJobId: videoId, claimedState: "failed" };
    return null;
  },

  estimateSeconds(script) {
    return 60 + Math.ceil(script.length / 10);
  },
};
