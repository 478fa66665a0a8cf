import type { PgBoss } from "pg-boss";
import { DataDirLockedError } from "@/db/pglite-lock";
import { assertConfig, config } from "@/lib/config";
import { log } from "@/lib/log";
import { getQueue } from "@/lib/queue/boss";
import { stopInlineWorkerOnSignal } from "./graceful-shutdown";
import { installHttpGuard } from "./http-guard";
import { configureDatabaseFromEnv, prepareDatabase } from "./prepare-database";

/**
 * Runs once when the web process starts (from Next's instrumentation hook). The entry point passes the
 * worker list (`worker/workers.ts`), so `lib` never imports the layer above it.
 */
export async function startServer(options: { startWorkers: (boss: PgBoss) => Promise<void> }) {
  assertConfig();
  configureDatabaseFromEnv();
  installHttpGuard();
  try {
    await prepareDatabase({ seed: true });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`\nBrand Studio cannot start: ${error.message}\n`);
      process.exit(1);
    }
    // PostgreSQL may come up later, or be migrated later: health answers 503 meanwhile (the error names
    // `npm run db:migrate` when that is what is missing), and the next query looks again.
    log.error("database_unavailable", { error });
  }
  try {
    const boss = await getQueue();
    if (config.worker === "inline") {
      await options.startWorkers(boss);
      stopInlineWorkerOnSignal();
    }
  } catch (error) {
    // The API still serves; jobs answer provider_unavailable until the queue is back.
    log.error("queue_start_failed", { error });
  }
  log.info("server_ready", { database: config.databaseUrl ? "postgres" : "pglite", worker: config.worker });
}
