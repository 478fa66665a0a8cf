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
    // Two files at a time (the machine has two cores). Files share nothing that the other could change: each
    // server a file starts has its own port, data folder or PostgreSQL database, and the shared server's
    // tests each sign up their own users. Timing checks compare samples taken side by side in one run.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
