import { loadEnvConfig } from "@next/env";
import { applyNodeEnvDefault, assertConfig, type Env } from "@/lib/config";

/**
 * `npm start` (scripts/start.mjs) calls this before Next starts. `next start` listens on its port first and
 * only then loads `.env` files and runs the instrumentation hook, so a bad configuration found there would
 * stop a server that had already accepted connections. Here the environment Next will see (NODE_ENV
 * defaulting to production, then the `.env*` files) is checked first, and a bad one exits before listening.
 */
export function checkStartConfig(dir: string): Env {
  applyNodeEnvDefault("production");
  loadEnvConfig(dir, false, { info: () => {}, error: (...args: unknown[]) => console.error(...args) });
  return assertConfig();
}
