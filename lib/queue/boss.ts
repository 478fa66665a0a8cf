import "server-only";
import type { PgBoss } from "pg-boss";
import { getDatabase } from "@/db/client";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";

const globalForQueue = globalThis as unknown as {
  brandStudioBoss?: Promise<PgBoss>;
  brandStudioHandlers?: Set<Promise<unknown>>;
  brandStudioStopping?: Map<string, () => Promise<void>>;
};

/** How long a stopping process waits for handlers that were told to stop (aborted) to wind down. */
const SETTLE_MS = 5000;

function handlers() {
  globalForQueue.brandStudioHandlers ??= new Set();
  return globalForQueue.brandStudioHandlers;
}

/**
 * Runs a job handler where a stopping process can see it: after the queue has stopped (and aborted what
 * it gave back), stopQueue waits for such handlers to wind down, so their clean-up and logs are not cut.
 */
export function trackHandler<T>(run: () => Promise<T>): Promise<T> {
  const running = run();
  const settled = running.catch(() => {});
  handlers().add(settled);
  void settled.finally(() => handlers().delete(settled));
  return running;
}

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

/**
 * Work a worker holds outside pg-boss's jobs (the publish worker's claimed publications): `hook` runs when
 * the process stops, before the queue does (so it may still queue jobs), within WORKER_SHUTDOWN_GRACE_SECONDS.
 * One hook per `name` (a worker started again replaces its own).
 */
export function onQueueStopping(name: string, hook: () => Promise<void>) {
  globalForQueue.brandStudioStopping ??= new Map();
  globalForQueue.brandStudioStopping.set(name, hook);
}

/**
 * Stops the queue gracefully: the onQueueStopping hooks first; no more fetching; a running job may finish within
 * WORKER_SHUTDOWN_GRACE_SECONDS, and one still running then is failed back to the queue (pg-boss's
 * failWip), so another worker retries it within seconds rather than after a heartbeat timeout, and its
 * handler's signal aborts the render here.
 */
export async function stopQueue() {
  const starting = globalForQueue.brandStudioBoss;
  globalForQueue.brandStudioBoss = undefined;
  if (!starting) return;
  const boss = await starting.catch(() => undefined);
  const hooks = [...(globalForQueue.brandStudioStopping?.values() ?? [])];
  if (hooks.length > 0) {
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(hooks.map((hook) => hook())),
      new Promise((resolve) => {
        graceTimer = setTimeout(resolve, getEnv().WORKER_SHUTDOWN_GRACE_SECONDS * 1000);
      }),
    ]);
    clearTimeout(graceTimer);
  }
  await boss?.stop({ graceful: true, timeout: getEnv().WORKER_SHUTDOWN_GRACE_SECONDS * 1000 });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled([...handlers()]),
    new Promise((resolve) => {
      timer = setTimeout(resolve, SETTLE_MS);
    }),
  ]);
  clearTimeout(timer);
}
