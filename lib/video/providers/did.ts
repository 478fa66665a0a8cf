/**
 * D-ID adapter. Request and response shapes as D-ID documents them (checked 2026-11):
 * - Upload an image: `POST /images`, multipart field `image`, answers `{id, url}`; the `url`
 *   (an `s3://d-id-images-prod/…` address) is what `source_url` takes (the d-id crate's
 *   upload_image_by_file → TalkRequestBodyBuilder.source_url(&image.url); D-ID Node SDK).
 * - Create a talk: `POST /talks` with `source_url`, `script: {type: "text", input}` and an optional
 *   `webhook`; answers `{id, object: "talk", created_at, status: "created"}`.
 * - Get a talk: `GET /talks/{id}` answers `status` created, started, done, error or rejected, with
 *   `result_url` when done, `duration`, and `error: {kind, description}` (D-ID's talk JSON schema; D-ID
 *   discussions of GET /talks/{id}). `DELETE /talks/{id}` removes one.
 * - Auth: `Authorization: Basic <API key>` (the key D-ID issues is already `user:secret` encoded).
 *   D-ID's `webhook` calls carry no signature, so they are only hints.
 */
import { getEnv } from "@/lib/config";
import { ProviderError, providerFetch, providerJson } from "./provider-http";
import type { HostedVideoProvider, ProviderJobState, ProviderPoll } from "./types";

const NAME = "did";

type Talk = {
  id?: string;
  status?: string;
  result_url?: string | null;
  duration?: number | null;
  error?: { kind?: string; description?: string } | string | null;
};

function settings() {
  const env = getEnv();
  if (!env.DID_API_KEY) throw new ProviderError(NAME, "DID_API_KEY is not set.", { transient: false });
  return { auth: `Basic ${env.DID_API_KEY}`, api: env.DID_BASE_URL };
}

const STATES: Record<string, ProviderJobState> = {
  created: "pending",
  started: "running",
  done: "succeeded",
  error: "failed",
  rejected: "failed",
};

function reason(talk: Talk) {
  if (talk.status === "rejected") return "D-ID rejected the photo or the script (content moderation).";
  if (typeof talk.error === "string") return talk.error;
  return talk.error?.description ?? talk.error?.kind ?? "D-ID gave no reason.";
}

export const didProvider: HostedVideoProvider = {
  name: NAME,

  async uploadAvatar(image, contentType) {
    const { auth, api } = settings();
    const form = new FormData();
    const extension = contentType === "image/png" ? "png" : "jpg";
    form.append("image", new Blob([new Uint8Array(image)], { type: contentType }), `avatar.${extension}`);
    const answer = await providerJson<{ id?: string; url?: string }>(NAME, `${api}/images`, {
      method: "POST",
      headers: { Authorization: auth, Accept: "application/json" },
      body: form,
    });
    if (!answer.url) throw new ProviderError(NAME, "D-ID did not return the image url.", { transient: true });
    return answer.url;
  },

  async submit(job) {
    const { auth, api } = settings();
    if (!job.brand.avatarProviderRef) {
      throw new ProviderError(NAME, "The brand has no D-ID image.", { transient: false });
    }
    const talk = await providerJson<Talk>(NAME, `${api}/talks`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        source_url: job.brand.avatarProviderRef,
        script: { type: "text", input: job.script },
        ...(job.webhookUrl ? { webhook: job.webhookUrl } : {}),
      }),
    });
    if (!talk.id) throw new ProviderError(NAME, "D-ID did not return a talk id.", { transient: true });
    return talk.id;
  },

  async poll(providerJobId): Promise<ProviderPoll> {
    const { auth, api } = settings();
    const talk = await providerJson<Talk>(NAME, `${api}/talks/${encodeURIComponent(providerJobId)}`, {
      headers: { Authorization: auth, Accept: "application/json" },
    });
    const state = STATES[talk.status ?? ""] ?? "pending";
    return {
      state,
      progress: state === "running" ? 50 : undefined,
      resultUrl: talk.result_url ?? undefined,
      durationSeconds: talk.duration ?? undefined,
      error: state === "failed" ? reason(talk) : undefined,
    };
  },

  async cancel(providerJobId) {
    const { auth, api } = settings();
    await providerFetch(NAME, `${api}/talks/${encodeURIComponent(providerJobId)}`, {
      method: "DELETE",
      headers: { Authorization: auth },
    });
  },

  parseWebhook({ body }) {
    const talk = JSON.parse(body) as Talk;
    if (!talk.id || !talk.status) return null;
    return { providerJobId: talk.id, claimedState: STATES[talk.status] ?? "pending" };
  },

  estimateSeconds(script) {
    return 30 + Math.ceil(script.length / 15);
  },
};
