import { closeDatabase } from "@/db/client";
import { assertConfig, config } from "@/lib/config";
import { log } from "@/lib/log";
import { getQueue, stopQueue } from "@/lib/queue/boss";
import { startMetricsServer } from "@/lib/server/metrics-server";
import { prepareDatabase } from "@/lib/server/prepare-database";
import { setMetricsRole } from "@/lib/telemetry/metrics";
import { startTracing, stopTracing } from "@/lib/telemetry/start-tracing";
import { startWorkers } from "./workers";

/** `npm run worker`: a job runner process of its own. Any number can share one PostgreSQL database. */
async function main() {
  assertConfig();
  if (!config.databaseUrl) {
    console.error(
      "npm run worker needs PostgreSQL: set DATABASE_URL. With the embedded PGlite database the worker " +
        "runs inside the web process (WORKER=inline), because only one process may open the PGlite folder.",
    );
    process.exit(1);
  }
  // Traces (when OTEL_EXPORTER_OTLP_ENDPOINT is set) and the metrics port (when METRICS_PORT is set):
  // a worker serves no HTTP, so its registry gets a small server of its own (docs/observability.md).
  await startTracing("worker");
  setMetricsRole("worker");
  const metricsServer = await startMetricsServer();
  // Migrates only in development; never seeds. A database that is behind stops the worker here, naming
  // `npm run db:migrate`.
  await prepareDatabase({ seed: false });
  const boss = await getQueue();
  await startWorkers(boss);
  log.info("worker_ready", { pid: process.pid });

  const shutdown = async (signal: string) => {
    log.info("worker_stopping", { signal });
    await stopQueue();
    metricsServer?.close();
    await stopTracing();
    await closeDatabase();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error) => {
  log.error("worker_failed", { error });
  process.exit(1);
});
