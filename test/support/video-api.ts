import { type VideoJobView, videoJob } from "@/lib/contracts/video";
import { api } from "./http";
import { waitFor } from "./video-media";

type Call = (path: string, init?: Parameters<typeof api>[1]) => ReturnType<typeof api>;

/** Calls bound to one server and one token. */
export function videoClient(server: string, token: string) {
  const call: Call = (path, init = {}) => api(path, { server, token, ...init });

  async function newBrand(fields: Record<string, unknown> = {}) {
    const response = await call("/api/brands", {
      method: "POST",
      json: { name: "Video Brand", tone: "warm and direct", voice: "short sentences", ...fields },
    });
    if (response.status !== 201) throw new Error(`Brand not created: ${response.status} ${response.text}`);
    return response.body.brandId as string;
  }

  async function newPost(brandId: string, channel: "instagram" | "linkedin" | "telegram" = "instagram") {
    const response = await call("/api/content/create", {
      method: "POST",
      json: {
        brandId,
        channel,
        topic: "our new seasonal autumn blend arrives this week",
        goal: "awareness",
      },
    });
    if (response.status !== 201) throw new Error(`Post not created: ${response.status} ${response.text}`);
    return response.body as { postId: string; caption: string };
  }

  const createJob = (body: Record<string, unknown>) =>
    call("/api/video/jobs", { method: "POST", json: body });

  async function getJob(jobId: string): Promise<VideoJobView> {
    const response = await call(`/api/video/jobs/${jobId}`);
    if (response.status !== 200) throw new Error(`Job ${jobId}: ${response.status} ${response.text}`);
    return videoJob.parse(response.body);
  }

  /** Polls until `until` holds, recording every answer seen. */
  async function pollJob(jobId: string, until: (job: VideoJobView) => boolean, timeoutMs = 90_000) {
    const seen: VideoJobView[] = [];
    const job = await waitFor(
      async () => {
        const current = await getJob(jobId);
        seen.push(current);
        return until(current) && current;
      },
      { timeoutMs, intervalMs: 200, what: `job ${jobId}` },
    );
    return { job, seen };
  }

  /** Creates a job (it must be accepted) and polls it until it has ended: the creation's answer and the job. */
  async function runJob(body: Record<string, unknown>, timeoutMs = 90_000) {
    const created = await createJob(body);
    if (created.status !== 202) throw new Error(`Job not created: ${created.status} ${created.text}`);
    const { job } = await pollJob(
      created.body.jobId,
      (current) => current.status !== "queued" && current.status !== "running",
      timeoutMs,
    );
    return { created, job };
  }

  return { call, newBrand, newPost, createJob, getJob, pollJob, runJob };
}

type FinishedVideo = {
  jobId: string;
  aspectRatio: string;
  videoUrl: string;
  thumbnailUrl: string;
  durationSeconds: number;
  captions: boolean;
  captionsUrl: string | null;
};

/** A video job run to its end, as its status answers: its signed video, poster and captions URLs, its length. */
export async function finishedVideo(
  call: Call,
  brandId: string,
  { timeoutMs = 120_000, mode = "regular" }: { timeoutMs?: number; mode?: "regular" | "avatar" } = {},
): Promise<FinishedVideo> {
  const job = await call("/api/video/jobs", {
    method: "POST",
    json: {
      brandId,
      mode,
      script: "Fresh beans, roasted every single morning in our own café. Come in.",
    },
  });
  if (job.status !== 202) throw new Error(`Video job not created: ${job.status} ${job.text}`);
  let done = {} as FinishedVideo;
  await waitFor(
    async () => {
      const status = await call(`/api/video/jobs/${job.body.jobId}`);
      if (status.body.status === "failed") throw new Error(status.text);
      done = status.body;
      return status.body.status === "succeeded";
    },
    { timeoutMs, what: "the video" },
  );
  return done;
}

/** A short regular video rendered for the brand: its signed `videoUrl` once the job has succeeded. */
export async function finishedVideoUrl(call: Call, brandId: string, timeoutMs = 120_000): Promise<string> {
  return (await finishedVideo(call, brandId, { timeoutMs })).videoUrl;
}

export const SCRIPT =
  "Fresh beans, roasted every single morning in our own café. Come in, say hi, and taste the difference.";
