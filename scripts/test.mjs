#!/usr/bin/env node
// The one test command: lint, build, Vitest (unit + HTTP against a real server), Playwright (Chromium).
// Runs against PGlite, or against PostgreSQL when DATABASE_URL is set.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

// As playwright.config.ts picks it: CHROMIUM_PATH, else the headless shell, else the full Chromium.
const chromium =
  process.env.CHROMIUM_PATH ||
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((candidate) => fs.existsSync(candidate));
if (!chromium || !fs.existsSync(chromium)) {
  console.error(
    `No Chromium${chromium ? ` at ${chromium}` : ""}. Install it with ` +
      "`sudo apt-get install chromium-headless-shell` (Debian/Ubuntu; or `chromium`), " +
      "or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
  process.exit(1);
}

const run = (command, args, env = {}) => {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
};

const target = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
console.log(`Testing against ${target}.`);

// SKIP_LINT=1 and SKIP_BUILD=1 let a second pass over another database reuse the first pass's lint and build.
if (
  process.env.SKIP_LINT !== "1" &&
  (run("npx", ["biome", "check", "."]) !== 0 || run("npx", ["tsc", "--noEmit"]) !== 0)
) {
  console.error("Lint failed.");
  process.exit(1);
}
if (process.env.SKIP_BUILD !== "1" && run("npx", ["next", "build"], { NEXT_DIST_DIR: ".next-test" }) !== 0) {
  console.error("Build failed.");
  process.exit(1);
}

fs.mkdirSync(".test-reports", { recursive: true });
const unitStatus = run("npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=.test-reports/unit.json",
]);
const e2eStatus = run("npx", ["playwright", "test", "--reporter=list,json"], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: ".test-reports/e2e.json",
});

const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
};
const unit = read(".test-reports/unit.json");
const e2e = read(".test-reports/e2e.json");
const passed = (unit?.numPassedTests ?? 0) + (e2e?.stats?.expected ?? 0);
const failed = (unit?.numFailedTests ?? 0) + (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0);
const skipped = (unit?.numPendingTests ?? 0) + (e2e?.stats?.skipped ?? 0);
const broken = unitStatus !== 0 || e2eStatus !== 0 || !unit || !e2e;

console.log(`\n${target}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(broken || failed > 0 || passed === 0 ? 1 : 0);
