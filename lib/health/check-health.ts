import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { chooseTextModel } from "@/lib/ai/model-choice";
import { config } from "@/lib/config";
import type { HealthResponse } from "@/lib/contracts/health";
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

export async function checkHealth(): Promise<HealthResponse> {
  const [database, queue] = await Promise.all([
    probe(async () => (await getDb()).execute(sql`select 1`)),
    probe(getQueue),
  ]);
  const videoStatus =
    database === "ok" && config.videoProvider !== "local"
      ? await openCircuits()
          .then((open) => (open.includes(config.videoProvider) ? "degraded" : "ok"))
          .catch(() => "ok" as const)
      : "ok";
  return {
    status: database === "ok" ? "ok" : "degraded",
    version: packageJson.version,
    time: new Date().toISOString(),
    checks: { database, queue, ai: chooseTextModel().provider, video: config.videoProvider, videoStatus },
  };
}
