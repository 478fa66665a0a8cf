import { log } from "@/lib/log";
import { stopQueue } from "@/lib/queue/boss";

const globalForShutdown = globalThis as unknown as { brandStudioShutdownHooked?: boolean };

/**
 * `next start` handles SIGTERM and SIGINT itself: it stops accepting connections, lets the requests in
 * flight finish, then calls process.exit. The inline worker must stop as well, the way a worker process
 * does (stop fetching; finish the running job within WORKER_SHUTDOWN_GRACE_SECONDS or give it back to the
 * queue), so Next's exit waits until the queue has stopped.
 */
export function stopInlineWorkerOnSignal() {
  if (globalForShutdown.brandStudioShutdownHooked) return;
  globalForShutdown.brandStudioShutdownHooked = true;
  let stopping: Promise<void> | undefined;
  const stop = (signal: NodeJS.Signals) => {
    stopping ??= (async () => {
      log.info("inline_worker_stopping", { signal });
      await stopQueue().catch((error) => log.error("inline_worker_stop_failed", { error }));
      log.info("inline_worker_stopped", { signal });
    })();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  const exit = process.exit.bind(process);
  process.exit = ((code?: number) => {
    if (!stopping) return exit(code);
    void stopping.finally(() => exit(code));
  }) as typeof process.exit;
}
