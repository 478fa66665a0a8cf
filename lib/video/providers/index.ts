import { config } from "@/lib/config";
import type { VideoProvider } from "../provider";
import type { HostedVideoProvider } from "./types";

/**
 * The renderer for videos made in-process: the built-in local renderer. With VIDEO_PROVIDER=heygen|did,
 * avatar videos go to that hosted provider instead (`getHostedProvider`, run-hosted-job.ts); regular videos
 * are still rendered here (docs/contract-notes.md, "Video providers"). The factories live apart from the
 * interface (`../provider.ts`), so an adapter can import the interface without importing every adapter.
 */
export async function getVideoProvider(): Promise<VideoProvider> {
  const { localVideoProvider } = await import("../local/local-provider");
  return localVideoProvider;
}

/** The hosted provider VIDEO_PROVIDER names, or null with the built-in local renderer. */
export async function getHostedProvider(
  name: string = config.videoProvider,
): Promise<HostedVideoProvider | null> {
  if (name === "heygen") return (await import("./heygen")).heygenProvider;
  if (name === "did") return (await import("./did")).didProvider;
  return null;
}
