import { config } from "@/lib/config";
import type { HostedVideoProvider } from "./types";

/** The hosted provider VIDEO_PROVIDER names, or null with the built-in local renderer. */
export async function getHostedProvider(
  name: string = config.videoProvider,
): Promise<HostedVideoProvider | null> {
  if (name === "heygen") return (await import("./heygen")).heygenProvider;
  if (name === "did") return (await import("./did")).didProvider;
  return null;
}
