import type { PgBoss } from "pg-boss";
import { getDatabase } from "@/db/client";
import { log } from "@/lib/log";

const globalForQueue = globalThis as unknown as { brandStudioBoss?: Promise<PgBoss> };

async function startBoss(): Promise<PgBoss> {
  const { PgBoss: Boss, fromPglite } = await import("pg-boss");
  const database = await getDatabase();
  // The supervisor is what notices a job whose heartbeat stopped (its worker died) or that expired;
  // every 10 s rather than pg-boss's 60 s, so such a job is retried within seconds.
  // LISTEN/NOTIFY: a job sent to a queue with `notify` wakes its idle workers at once (in this process and
  // in every worker process on PostgreSQL) instead of at their next poll; polling stays as the backstop.
  const supervision = { superviseIntervalSeconds: 10, monitorIntervalSeconds: 10, useListenNotify: true };
  const boss =
    database.kind === "pglite"
      ? new Boss({ db: fromPglite(database.pglite), backend: "pglite", schema: "pgboss", ...supervision })
      : new Boss({ connectionString: database.url, schema: "pgboss", max: 4, ...supervision });
  boss.on("error", (error) => log.error("queue_error", { error }));
  await boss.start();
  return boss;
}

/** The app's one job queue (pg-boss on the app's own database), started once per process. */
export function getQueue(): Promise<PgBoss> {
  if (!globalForQueue.brandStudioBoss) {
    const starting = startBoss();
    starting.catch(() => {
      if (globalForQueue.brandStudioBoss === starting) globalForQueue.brandStudioBoss = undefined;
    });
    globalForQueue.brandStudioBoss = starting;
  }
  return globalForQueue.brandStudioBoss;
}

export async function stopQueue() {
  const starting = globalForQueue.brandStudioBoss;
  globalForQueue.brandStudioBoss = undefined;
  if (starting) await (await starting).stop({ graceful: true, timeout: 10_000 });
}
