import { config } from "@/lib/config";
import type { VideoProvider } from "../provider";

/** Stands in for a VIDEO_PROVIDER this build has no adapter for: every job answers provider_unavailable. */
function missingProvider(name: string): VideoProvider {
  const reason = `VIDEO_PROVIDER=${name} is not a provider this build has; use "local".`;
  return {
    name,
    checkHealth: async () => ({ ok: false, reason }),
    estimateSeconds: () => 0,
    render: async () => {
      throw new Error(reason);
    },
  };
}

/**
 * The provider VIDEO_PROVIDER names (default `local`). The factory lives apart from the interface
 * (`../provider.ts`), so an adapter can import the interface without importing every other adapter.
 */
export async function getVideoProvider(): Promise<VideoProvider> {
  if (config.videoProvider === "local") {
    const { localVideoProvider } = await import("../local/local-provider");
    return localVideoProvider;
  }
  return missingProvider(config.videoProvider);
}
