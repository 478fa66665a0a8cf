import path from "node:path";
import { defineConfig } from "vitest/config";
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: { include: ["test/**/*.test.ts"], setupFiles: ["test/setup-database.ts"], testTimeout: 60_000 },
});
