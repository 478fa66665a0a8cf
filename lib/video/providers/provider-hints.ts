import { EventEmitter } from "node:events";

/**
 * Provider webhooks are hints: they wake the worker that polls the job in this process, which then asks
 * the provider itself (a status GET) and acts only on that answer. A worker in another process polls on
 * its own schedule. Kept on globalThis, because route handlers and the inline worker may load separate
 * copies of this module.
 */
const globalForHints = globalThis as unknown as { brandStudioProviderHints?: EventEmitter };

function bus() {
  if (!globalForHints.brandStudioProviderHints) {
    globalForHints.brandStudioProviderHints = new EventEmitter();
    globalForHints.brandStudioProviderHints.setMaxListeners(0);
  }
  return globalForHints.brandStudioProviderHints;
}

export function hintProviderJob(providerJobId: string) {
  return bus().emit(providerJobId);
}

/** Waits `ms`, or less if a hint for this provider job arrives; rejects when `signal` aborts. */
export function waitOrHint(
  providerJobId: string,
  ms: number,
  signal: AbortSignal,
): Promise<"timer" | "hint"> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = (how: "timer" | "hint") => {
      clearTimeout(timer);
      bus().off(providerJobId, onHint);
      signal.removeEventListener("abort", onAbort);
      resolve(how);
    };
    const onHint = () => done("hint");
    const onAbort = () => {
      clearTimeout(timer);
      bus().off(providerJobId, onHint);
      reject(signal.reason);
    };
    const timer = setTimeout(() => done("timer"), ms);
    bus().on(providerJobId, onHint);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
