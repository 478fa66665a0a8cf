import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-database.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files run one at a time: the machine has two cores and the tests start real servers.
    fileParallelism: false,
  },
});
