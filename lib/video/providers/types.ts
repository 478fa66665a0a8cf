import type { VideoMode } from "@/lib/contracts/video";

/**
 * A hosted video provider (HeyGen, D-ID): the worker submits a job, stores the provider's id on the job
 * before it waits, then polls that id until the provider is done, and copies the result into our media
 * storage. The local renderer stays behind the older `VideoProvider.render` (see ../provider.ts).
 */
export type HostedJob = {
  jobId: string;
  script: string;
  brief: string | null;
  mode: VideoMode;
  brand: { name: string; language: string; avatarProviderRef: string | null };
  /** Where the provider may send its webhook (a hint only), when APP_URL is known. */
  webhookUrl: string | null;
};

export type ProviderJobState = "pending" | "running" | "succeeded" | "failed";

export type ProviderPoll = {
  state: ProviderJobState;
  progress?: number;
  /** The provider's (expiring) link to the finished MP4. */
  resultUrl?: string;
  thumbnailUrl?: string;
  durationSeconds?: number;
  /** Why it failed, in the provider's words. */
  error?: string;
};

/** What a provider webhook claims; the worker never trusts it and confirms it with a status GET. */
export type ProviderWebhookHint = { providerJobId: string; claimedState: ProviderJobState };

export interface HostedVideoProvider {
  readonly name: "heygen" | "did";
  /** Starts a render; answers the provider's job id. */
  submit(job: HostedJob): Promise<string>;
  poll(providerJobId: string): Promise<ProviderPoll>;
  cancel?(providerJobId: string): Promise<void>;
  /** Uploads the brand's avatar photo; answers the reference `submit` needs (talking_photo_id, image URL). */
  uploadAvatar(image: Buffer, contentType: string): Promise<string>;
  /** Reads a webhook request; null when it is not about a video job. Throws when a signature does not verify. */
  parseWebhook?(request: { headers: Headers; body: string }): ProviderWebhookHint | null;
  /** Seconds such a render usually takes, for estimatedSeconds. */
  estimateSeconds(script: string): number;
}
