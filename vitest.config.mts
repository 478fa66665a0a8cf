import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // db and the services import "server-only" so the browser can never bundle them; tests run on the server.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-database.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files run one at a time: some check wall-clock behaviour (a PostgreSQL outage recovered within 5 s,
    // sign-in timing), and a second file on the other core made the recovery take 6.5 s in CI.
    fileParallelism: false,
  },
});
