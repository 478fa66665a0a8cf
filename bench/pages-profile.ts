import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { chromiumPath } from "../playwright.config";
import { startFakeTelegram } from "../test/support/fake-telegram";
import {
  PROFILE_CATEGORIES,
  pageMainThread,
  startTrace,
  type TraceEvent,
  tasksBetween,
} from "./chrome-trace";
import { seedFullCalendar } from "./full-calendar";
import { type Running, startApp } from "./servers";

/**
 * `node --conditions=react-server --import tsx bench/pages-profile.ts [--loads 2] [--out <dir>]`: where the long
 * tasks of bench/pages.ts's pages go. The same app and data as bench/pages.ts (an existing .next-test build);
 * each page loaded `--loads` times with a Chrome trace (timeline and V8 sampling; bench/chrome-trace.ts). Per
 * load it prints each task over 50 ms on the page's renderer main thread: its length, what ran in it (trace
 * events by self time) and the JavaScript functions that took most of it (self time, with their script and
 * position). The traces stay in `--out` for chrome://tracing.
 */
function option(name: string, fallback: string) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

/** The page's tasks over 50 ms, from its navigation start on, on its renderer's main thread only. */
function analyse(events: TraceEvent[], url?: string) {
  const main = pageMainThread(events, url);
  const complete = main.events.filter((e) => e.ph === "X" && typeof e.dur === "number");
  const tasks = tasksBetween(main, main.navigationStart, Number.POSITIVE_INFINITY)
    .filter((e) => (e.dur ?? 0) > 50_000)
    .sort((a, b) => a.ts - b.ts);
  // V8's samples on the main thread: each sample's time and leaf node.
  const nodes = new Map<
    string,
    { callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }
  >();
  const samples: { ts: number; key: string }[] = [];
  const profiles = new Map<string, { time: number; tid: number; pid: number }>();
  for (const e of events) {
    if (e.name === "Profile" && e.id)
      profiles.set(e.id, { time: e.args?.data?.startTime ?? e.ts, tid: e.tid, pid: e.pid });
  }
  for (const e of events) {
    if (e.name !== "ProfileChunk" || !e.id) continue;
    const profile = profiles.get(e.id);
    if (!profile || profile.pid !== main.pid || profile.tid !== main.tid) continue;
    const data = e.args?.data;
    for (const node of data?.cpuProfile?.nodes ?? [])
      if (node.callFrame) nodes.set(`${e.id}:${node.id}`, node);
    const deltas = data?.timeDeltas ?? [];
    (data?.cpuProfile?.samples ?? []).forEach((id, index) => {
      profile.time += deltas[index] ?? 0;
      samples.push({ ts: profile.time, key: `${e.id}:${id}` });
    });
  }
  samples.sort((a, b) => a.ts - b.ts);
  const lines: string[] = [];
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = complete.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    // Self time per event name: its duration less its direct children's.
    const self = new Map<string, number>();
    for (const e of inside) {
      const children = inside.filter(
        (c) => c !== e && c.ts >= e.ts && c.ts + (c.dur ?? 0) <= e.ts + (e.dur ?? 0),
      );
      const direct = children.filter(
        (c) =>
          !children.some(
            (d) =>
              d !== c &&
              d.ts <= c.ts &&
              d.ts + (d.dur ?? 0) >= c.ts + (c.dur ?? 0) &&
              (d.dur ?? 0) > (c.dur ?? 0),
          ),
      );
      const childTime = direct.reduce((sum, c) => sum + (c.dur ?? 0), 0);
      self.set(e.name, (self.get(e.name) ?? 0) + Math.max(0, (e.dur ?? 0) - childTime));
    }
    const functions = new Map<string, number>();
    const within = samples.filter((s) => s.ts >= task.ts && s.ts <= end);
    for (let i = 0; i < within.length; i++) {
      const node = nodes.get(within[i].key);
      if (!node) continue;
      const frame = node.callFrame;
      const name = `${frame.functionName || "(anonymous)"} ${(frame.url ?? "").split("/").at(-1)}:${frame.lineNumber}:${frame.columnNumber}`;
      const next = within[i + 1]?.ts ?? end;
      functions.set(name, (functions.get(name) ?? 0) + (next - within[i].ts));
    }
    const top = (map: Map<string, number>, n: number) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
        .join("; ");
    const url = inside.find((e) => e.name === "FunctionCall" || e.name === "EvaluateScript");
    lines.push(`  task ${((task.dur ?? 0) / 1000).toFixed(0)} ms ${url ? "" : ""}`);
    lines.push(`    events: ${top(self, 10)}`);
    lines.push(`    functions: ${top(functions, Number(option("top", "14")))}`);
  }
  return lines.join("\n");
}

async function main() {
  // `--analyse <trace.json>`: the same summary of a trace written before.
  const written = option("analyse", "");
  if (written) {
    const trace = JSON.parse(fs.readFileSync(written, "utf8"));
    console.log(analyse(trace.traceEvents ?? trace));
    return;
  }
  const pgBase = option("pg", "postgres://postgres@127.0.0.1:5432/postgres");
  const loads = Number(option("loads", "2"));
  const count = Number(option("publications", "1000"));
  const out = option("out", fs.mkdtempSync(path.join(os.tmpdir(), "bs-pages-trace-")));
  const only = option("only", "");
  fs.mkdirSync(out, { recursive: true });
  const telegram = await startFakeTelegram();
  const running: Running[] = [];
  try {
    const app = await startApp({
      name: "PostgreSQL",
      postgresUrl: pgBase,
      worker: "off",
      env: { TELEGRAM_API_BASE_URL: telegram.url, NEXT_DIST_DIR: option("dist", ".next-test") },
    });
    running.push(app);
    const { brandId, signIn } = await seedFullCalendar(app, telegram, count);
    const browser = await chromium.launch({
      executablePath: chromiumPath || undefined,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    const pages = [
      ["calendar", `${app.url}/calendar`],
      ["analytics", `${app.url}/brands/${brandId}/analytics`],
    ].filter(([name]) => !only || name === only);
    try {
      for (let load = 0; load < loads; load++) {
        for (const [name, url] of pages) {
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
          await signIn(context.request);
          const page = await context.newPage();
          const file = path.join(out, `${name}-${load + 1}.json`);
          const stop = await startTrace(page, PROFILE_CATEGORIES);
          const response = await page.goto(url);
          await page.waitForTimeout(Number(option("wait-ms", "6000")));
          const events = await stop();
          fs.writeFileSync(file, JSON.stringify({ traceEvents: events }));
          // `--shots <dir>`: the loaded page at 1280 and 390 px, whole, and the first chart hovered.
          const shots = option("shots", "");
          if (shots && load === 0) {
            fs.mkdirSync(shots, { recursive: true });
            await page.screenshot({ path: path.join(shots, `${name}-1280.png`), fullPage: true });
            const chart = page.getByTestId("series-chart").first();
            if (await chart.count()) {
              await chart.hover({ position: { x: 200, y: 60 } });
              await page.screenshot({ path: path.join(shots, `${name}-hover-1280.png`) });
            }
            await page.setViewportSize({ width: 390, height: 844 });
            await page.waitForTimeout(1000);
            // The calendar on a phone lists every post below the grid: its first screens only.
            await page.screenshot({
              path: path.join(shots, `${name}-390.png`),
              fullPage: name !== "calendar",
            });
          }
          await context.close();
          console.log(`${name} load ${load + 1} (${file}):\n${analyse(events, response?.url() ?? url)}`);
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    await Promise.allSettled(running.reverse().map((r) => r.stop()));
    await telegram.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
