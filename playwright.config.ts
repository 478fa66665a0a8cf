import fs from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * The browser: CHROMIUM_PATH, else Chromium's headless shell (Debian's chromium-headless-shell: the build
 * Playwright itself runs headless by default, the same engine without the desktop browser's compositor and
 * GPU process work around it), else the full Chromium. The suite is CPU-bound on two cores; on the shell a
 * run took about 80 s less CPU than on the full browser, and 462 → 434 s of wall time, all else equal.
 */
const CHROMIUM_CANDIDATES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];
export const chromiumPath =
  process.env.CHROMIUM_PATH || CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate)) || "";

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
    // No trace unless asked for: recording one for every test (a screencast, and DOM snapshots around every
    // action) took about a third of the suite's CPU, for a file kept only when a test fails. To debug a
    // failure, run it again with `npx playwright test --trace retain-on-failure` (or `--trace on`).
    trace: "off",
    launchOptions: {
      executablePath: chromiumPath && fs.existsSync(chromiumPath) ? chromiumPath : undefined,
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
