import { DataDirLockedError } from "@/db/pglite-lock";
import { prepareDatabase } from "@/db/prepare";
import { assertConfig, config } from "@/lib/config";
import { log } from "@/lib/log";
import { getQueue } from "@/lib/queue/boss";
import { startWorkers } from "@/lib/queue/workers";
import { installHttpGuard } from "./http-guard";

/** Runs once when the web process starts (from Next's instrumentation hook). */
export async function startServer() {
  assertConfig();
  installHttpGuard();
  try {
    await prepareDatabase();
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`\nBrand Studio cannot start: ${error.message}\n`);
      process.exit(1);
    }
    // PostgreSQL may come up later: health answers 503 meanwhile, and the next query tries again.
    log.error("database_unavailable", { error });
  }
  try {
    const boss = await getQueue();
    if (config.worker === "inline") await startWorkers(boss);
  } catch (error) {
    // The API still serves; jobs answer provider_unavailable until the queue is back.
    log.error("queue_start_failed", { error });
  }
  log.info("server_ready", { database: config.databaseUrl ? "postgres" : "pglite", worker: config.worker });
}
