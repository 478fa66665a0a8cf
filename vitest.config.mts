import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Files that run alone, after the rest: they hold a bound on wall-clock time (a PostgreSQL outage recovered
 * within 5 s, sign-in costing the same for a known and an unknown email, a graceful stop within its drain,
 * a timeout's total), race a worker on purpose, or kill processes and count what survived. A second file on
 * the other core made the outage recovery take 6.5 s in CI once. Every other file keeps to its own data (its
 * own users and brands on the shared server, or a server of its own), so they run two at a time (2 cores):
 * about 40 % less time a pass.
 */
const ALONE = [
  "test/ai-openai.test.ts",
  "test/auth.test.ts",
  "test/auth-throttle.test.ts",
  "test/database.test.ts",
  "test/db-outage.test.ts",
  "test/production-start.test.ts",
  "test/publishing-instagram-workers.test.ts",
  "test/publishing-reschedule.test.ts",
  "test/publishing-workers.test.ts",
  "test/request-limits.test.ts",
  "test/several-hosts.test.ts",
  "test/video-workers.test.ts",
  "test/web-shutdown.test.ts",
  "test/worker-shutdown.test.ts",
];

/**
 * What both projects run with. They do not extend the root config: a project that does inherits its global
 * setup and runs it again (a database template and a shared server each), and the root's runs once for both.
 */
const resolve = {
  alias: {
    "@": path.resolve(import.meta.dirname),
    // db and the services import "server-only" so the browser can never bundle them; tests run on the server.
    "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
  },
};
const shared = { setupFiles: ["test/setup-database.ts"], testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    projects: [
      {
        resolve,
        test: {
          ...shared,
          name: "two at a time",
          include: ["test/**/*.test.ts"],
          exclude: ALONE,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve,
        test: {
          ...shared,
          name: "alone",
          include: ALONE,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
