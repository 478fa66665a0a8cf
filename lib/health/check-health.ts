import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { chooseTextModel } from "@/lib/ai/model-choice";
import { config } from "@/lib/config";
import type { HealthResponse } from "@/lib/contracts/health";
import { getMediaStorage } from "@/lib/media/storage";
import { getQueue } from "@/lib/queue/boss";
import { openCircuits } from "@/lib/video/providers/circuit";
import packageJson from "@/package.json";

const CHECK_TIMEOUT_MS = 3000;

async function probe(check: () => Promise<unknown>): Promise<"ok" | "unavailable"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return "ok";
  } catch {
    return "unavailable";
  } finally {
    clearTimeout(timer);
  }
}

/** A real round trip through pg-boss's own tables (its queue list), not only "it started once". */
async function checkQueue() {
  const boss = await getQueue();
  await boss.getQueues();
}

/**
 * Readiness: the database answers a query, the queue answers through its tables, and the media store
 * answers a real request (a bucket HEAD on S3, the folder on the local store). Any one down → degraded.
 */
export async function checkHealth(): Promise<HealthResponse> {
  const [database, queue, media] = await Promise.all([
    probe(async () => (await getDb()).execute(sql`select 1`)),
    probe(checkQueue),
    probe(() => getMediaStorage().check()),
  ]);
  const ok = database === "ok" && queue === "ok" && media === "ok";
  const videoStatus =
    database === "ok" && config.videoProvider !== "local"
      ? await openCircuits()
          .then((open) => (open.includes(config.videoProvider) ? "degraded" : "ok"))
          .catch(() => "ok" as const)
      : "ok";
  return {
    status: ok ? "ok" : "degraded",
    version: packageJson.version,
    time: new Date().toISOString(),
    checks: {
      database,
      queue,
      media,
      ai: chooseTextModel().provider,
      video: config.videoProvider,
      videoStatus,
    },
  };
}
