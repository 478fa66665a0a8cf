import { randomBytes } from "node:crypto";
import {
  defaultBehavior,
  type FakeServer,
  postWebhook,
  readBody,
  sampleMp4,
  sendJson,
  serveFile,
  startFake,
} from "./fake-provider-kit";

/**
 * A local server that speaks the documented HeyGen API (see lib/video/providers/heygen.ts for the sources):
 * - `POST /v1/talking_photo` (the upload host): raw JPEG/PNG body → `{code: 100, data: {talking_photo_id, talking_photo_url}}`
 * - `POST /v2/video/generate` → `{error: null, data: {video_id}}`; 400 for a missing or unknown talking photo
 * - `GET /v1/video_status.get?video_id=` → `{code: 100, data: {id, status, video_url, thumbnail_url, duration, error, callback_id}}`,
 *   status pending → processing → completed (or failed)
 * - Auth: `X-Api-Key`, else 401. Webhooks `avatar_video.success|fail` go to `webhookUrl` (the account's
 *   registered endpoint) unless dropped.
 */
export type FakeHeygen = FakeServer & {
  apiKey: string;
  webhookUrl: string | null;
  setWebhookUrl: (url: string | null) => void;
};

type Video = {
  id: string;
  talkingPhotoId: string;
  text: string;
  callbackId: string | null;
  createdAt: number;
  fail: string | null;
  notified: boolean;
};

export async function startFakeHeygen(options: { apiKey?: string; port?: number } = {}): Promise<FakeHeygen> {
  const apiKey = options.apiKey ?? "heygen-test-key";
  const behavior = defaultBehavior();
  const photos = new Map<string, number>();
  const videos = new Map<string, Video>();
  let submits = 0;
  let webhooks = 0;
  let webhookUrl: string | null = null;
  const video = sampleMp4();
  let base = "";

  const statusOf = (v: Video) => {
    const elapsed = Date.now() - v.createdAt;
    if (elapsed < behavior.renderMs * 0.2) return "pending";
    if (elapsed < behavior.renderMs) return "processing";
    return v.fail ? "failed" : "completed";
  };
  const notify = (v: Video, status: string) => {
    if (v.notified || !webhookUrl || behavior.dropWebhooks) return;
    v.notified = true;
    webhooks++;
    void postWebhook(webhookUrl, {
      event_type: status === "completed" ? "avatar_video.success" : "avatar_video.fail",
      event_data: {
        video_id: v.id,
        url: `${base}/files/${v.id}.mp4`,
        callback_id: v.callbackId,
        msg: v.fail,
      },
    });
  };
  // Webhooks fire when a video finishes, whether or not anyone polls.
  const timer = setInterval(() => {
    for (const v of videos.values()) {
      const status = statusOf(v);
      if (status === "completed" || status === "failed") notify(v, status);
    }
  }, 200);

  const fake = await startFake({
    port: options.port,
    behavior,
    state: () => ({
      submits,
      webhooks,
      videos: [...videos.values()].map((v) => ({ id: v.id, status: statusOf(v) })),
    }),
    async handle(req, res, url) {
      if (url.pathname.startsWith("/files/")) return serveFile(res, video, "video/mp4");
      if (req.headers["x-api-key"] !== apiKey) {
        return sendJson(res, 401, { error: { code: "unauthorized", message: "Unauthorized" } });
      }
      if (req.method === "POST" && url.pathname === "/v1/talking_photo") {
        const type = req.headers["content-type"];
        const body = await readBody(req);
        if (type !== "image/jpeg" && type !== "image/png") {
          return sendJson(res, 400, {
            code: 400,
            data: null,
            message: "Content-Type must be image/jpeg or image/png",
          });
        }
        if (body.length < 100)
          return sendJson(res, 400, {
            code: 400,
            data: null,
            message: "No face detected, please try another photo.",
          });
        const id = randomBytes(16).toString("hex");
        photos.set(id, body.length);
        return sendJson(res, 200, {
          code: 100,
          data: { talking_photo_id: id, talking_photo_url: `${base}/files/${id}.jpg` },
          msg: null,
          message: null,
        });
      }
      if (req.method === "POST" && url.pathname === "/v2/video/generate") {
        const body = JSON.parse((await readBody(req)).toString()) as {
          video_inputs?: {
            character?: { type?: string; talking_photo_id?: string };
            voice?: { type?: string; input_text?: string; voice_id?: string };
          }[];
          callback_id?: string;
        };
        if (behavior.rateLimit.count > 0) {
          behavior.rateLimit.count--;
          return sendJson(
            res,
            429,
            { error: { code: "rate_limit_exceeded", message: "Too many requests" } },
            {
              "Retry-After": String(behavior.rateLimit.retryAfterSeconds),
            },
          );
        }
        const input = body.video_inputs?.[0];
        if (input?.character?.type !== "talking_photo" || !input.character.talking_photo_id) {
          return sendJson(res, 400, {
            error: { code: "invalid_parameter", message: "video_inputs.0.character is invalid" },
            data: null,
          });
        }
        if (!photos.has(input.character.talking_photo_id)) {
          return sendJson(res, 400, {
            error: { code: "talking_photo_not_found", message: "Talking photo not found" },
            data: null,
          });
        }
        if (input.voice?.type !== "text" || !input.voice.input_text || !input.voice.voice_id) {
          return sendJson(res, 400, {
            error: { code: "invalid_parameter", message: "video_inputs.0.voice is invalid" },
            data: null,
          });
        }
        const id = randomBytes(16).toString("hex");
        videos.set(id, {
          id,
          talkingPhotoId: input.character.talking_photo_id,
          text: input.voice.input_text,
          callbackId: body.callback_id ?? null,
          createdAt: Date.now(),
          fail: behavior.failNext,
          notified: false,
        });
        behavior.failNext = null;
        submits++;
        return sendJson(res, 200, { error: null, data: { video_id: id } });
      }
      if (req.method === "GET" && url.pathname === "/v1/video_status.get") {
        const v = videos.get(url.searchParams.get("video_id") ?? "");
        if (!v) return sendJson(res, 404, { code: 40001, data: null, message: "Video not found" });
        const status = statusOf(v);
        return sendJson(res, 200, {
          code: 100,
          data: {
            id: v.id,
            status,
            callback_id: v.callbackId,
            video_url: status === "completed" ? `${base}/files/${v.id}.mp4?expires=7d` : null,
            thumbnail_url: status === "completed" ? `${base}/files/${v.id}.jpg` : null,
            duration: status === "completed" ? 2 : null,
            error:
              status === "failed" ? { code: 40119, message: "Video render failed", detail: v.fail } : null,
          },
          message: "Success",
        });
      }
      return sendJson(res, 404, {
        error: { code: "not_found", message: `No route ${req.method} ${url.pathname}` },
      });
    },
  });
  base = fake.url;
  return {
    url: fake.url,
    apiKey,
    behavior,
    requests: fake.requests,
    submits: () => submits,
    lastJobId: () => [...videos.keys()].at(-1) ?? null,
    webhooksSent: () => webhooks,
    get webhookUrl() {
      return webhookUrl;
    },
    setWebhookUrl: (value) => {
      webhookUrl = value;
    },
    close: async () => {
      clearInterval(timer);
      await fake.close();
    },
  };
}
