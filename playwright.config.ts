import fs from "node:fs";
import { defineConfig } from "@playwright/test";

export const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time against the one server: each test signs up its own people and makes its own
  // brands and fake channels, so neither can see the other's data.
  workers: 2,
  reporter: "list",
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: "chromium",
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: fs.existsSync(chromiumPath) ? chromiumPath : undefined,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
