import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, errors } from "@playwright/test";
import { chromiumPath } from "../playwright.config";
import { startFakeTelegram } from "../test/support/fake-telegram";
import { COMPLETE_MARK, pageMainThread, startTrace, tasksBetween } from "./chrome-trace";
import { firstLoadJs } from "./first-load";
import { seedFullCalendar } from "./full-calendar";
import { median } from "./measure";
import { BASELINE_DIR, buildAll, ROOT, type Running, startApp, startBaselineNext } from "./servers";

/**
 * `node --conditions=react-server --import tsx bench/pages.ts [--pg <url>] [--rounds 3] [--publications 1000]`
 * (`npm run bench:pages`): issue 44's "a full calendar" in real Chromium (Debian's, as playwright.config.ts
 * picks it). The app on PostgreSQL (WORKER=off, nothing runs) with a brand that has four Telegram channels
 * (connected through the fake), `--publications` publications this month (a post for every four, published
 * before now and scheduled after), and a year of results: a post a day, each with a daily capture of three
 * metrics from its day to today, and the channels' follower counts. Per round, in turn, in a fresh browser
 * context each (a cold cache): the trivial Next page (bench/baseline-next), the calendar month and the brand
 * analytics page. Per load: Largest Contentful Paint, the longest task on the page's renderer main thread
 * from its navigation start until the page is complete (every calendar chip named; the analytics charts
 * drawn; the trivial page's paragraph there) and 1 s after, from a Chrome trace of the load
 * (bench/chrome-trace.ts: the main thread's outermost `RunTask`s, so a figure in ms for every page, under
 * 50 ms too), the tasks over 50 ms the Long Tasks API saw in the same window (their number and the
 * longest), and the time to complete. First-load JS of both pages against the trivial page's, from the
 * build's manifests. Goals (on the medians of the rounds): each page complete in every round; LCP ≤ 1.5 s;
 * longest task ≤ 1.5× the trivial page's; first-load JS ≤ 1.3×. Prints the figures and the verdict; copy
 * them to bench/notes.md.
 */
function option(name: string, fallback: string) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}
const COMPLETE_TIMEOUT_MS = Number(option("timeout-ms", "60000"));
/** `--dist <dir>`: a build of the app in another folder (built with NEXT_DIST_DIR=<dir>), e.g. while tests use .next-test. */
const DIST_DIR = option("dist", ".next-test");
/** `--shots <dir>`: screenshots of each page at 1280 and 390 px wide, after its measured load. */
const shots = process.argv.includes("--shots") ? option("shots", "") : "";

/** `longest` from the trace (ms); `longTasks`: the Long Tasks API's (over 50 ms) durations. */
type Load = { lcp: number; longest: number; complete: number; longTasks: number[] };

async function measure(
  browser: Browser,
  url: string,
  complete: (count: number) => boolean,
  count: number,
  signIn?: (request: import("@playwright/test").APIRequestContext) => Promise<void>,
): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    if (signIn) await signIn(context.request);
    await context.addInitScript(() => {
      const perf = { lcp: 0, longtasks: [] as { start: number; duration: number }[] };
      (window as unknown as { __perf: typeof perf }).__perf = perf;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) perf.lcp = entry.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          perf.longtasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: "longtask", buffered: true });
    });
    // The page tests itself for complete every 50 ms from its start, marks the moment (for the trace) and
    // says so on the console. Not Playwright's waitForFunction: it evaluates Playwright's injected script
    // and polls with it in the page, the bench's own work on the measured thread, and the app's CSP forbids
    // its string form (an eval). An init script is neither.
    await context.addInitScript({
      content: `(() => {
        const complete = (${complete});
        const timer = setInterval(() => {
          if (!complete(${JSON.stringify(count)})) return;
          clearInterval(timer);
          performance.mark(${JSON.stringify(COMPLETE_MARK)});
          console.debug(${JSON.stringify(COMPLETE_MARK)});
        }, 50);
      })();`,
    });
    const page = await context.newPage();
    const stopTrace = await startTrace(page);
    const started = Date.now();
    // A page that does not complete in time is measured all the same (its complete time is NaN: "never").
    const completed = page
      .waitForEvent("console", {
        predicate: (message) => message.text() === COMPLETE_MARK,
        timeout: COMPLETE_TIMEOUT_MS,
      })
      .then(() => Date.now() - started)
      .catch((error) => {
        if (error instanceof errors.TimeoutError) return Number.NaN;
        throw error;
      });
    const response = await page.goto(url);
    const done = await completed;
    await page.waitForTimeout(1000);
    const main = pageMainThread(await stopTrace(), response?.url() ?? url);
    if (!Number.isNaN(done) && main.complete === undefined)
      throw new Error(`${url}: complete, but its mark is not in the trace`);
    // Until complete and 1 s after (the trace ends there anyway when it never completed).
    const [longest] = tasksBetween(
      main,
      main.navigationStart,
      (main.complete ?? Number.POSITIVE_INFINITY) + 1_000_000,
    );
    // The API's long tasks in the same window (the page's clock: its navigation start is 0).
    const perf = await page.evaluate((mark) => {
      const { lcp, longtasks } = (
        window as unknown as { __perf: { lcp: number; longtasks: { start: number; duration: number }[] } }
      ).__perf;
      const end = (performance.getEntriesByName(mark)[0]?.startTime ?? Number.POSITIVE_INFINITY) + 1000;
      return { lcp, longTasks: longtasks.filter((t) => t.start < end).map((t) => t.duration) };
    }, COMPLETE_MARK);
    if (shots) {
      fs.mkdirSync(shots, { recursive: true });
      const name = new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "trivial";
      await page.screenshot({ path: path.join(shots, `${name}-1280.png`), fullPage: false });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(shots, `${name}-390.png`), fullPage: false });
    }
    return {
      lcp: perf.lcp,
      longest: (longest?.dur ?? Number.NaN) / 1000,
      complete: done,
      longTasks: perf.longTasks,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const pgBase = option("pg", "postgres://postgres@127.0.0.1:5432/postgres");
  const rounds = Number(option("rounds", "3"));
  const count = Number(option("publications", "1000"));
  // `--rebuild` after changing the pages (the bench's own check of source times would also rebuild for a
  // worker-only change).
  if (process.argv.includes("--rebuild") || !fs.existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID")))
    buildAll(true);
  const telegram = await startFakeTelegram();
  const running: Running[] = [];
  const stopAll = async () => {
    await Promise.allSettled(running.reverse().map((r) => r.stop()));
    await telegram.close();
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    const trivial = await startBaselineNext();
    running.push(trivial);
    const app = await startApp({
      name: "PostgreSQL",
      postgresUrl: pgBase,
      worker: "off",
      env: { TELEGRAM_API_BASE_URL: telegram.url, NEXT_DIST_DIR: DIST_DIR },
    });
    running.push(app);
    const { brandId, signIn } = await seedFullCalendar(app, telegram, count);
    const browser = await chromium.launch({
      executablePath: chromiumPath || undefined,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    const loads = new Map<string, Load[]>([
      ["trivial Next page", []],
      ["calendar month", []],
      ["brand analytics", []],
    ]);
    const loadBefore = os.loadavg();
    try {
      for (let round = 0; round < rounds; round++) {
        console.log(`bench: round ${round + 1}/${rounds}`);
        const trivialLoad = await measure(
          browser,
          `${trivial.url}/`,
          () => document.querySelector("p") !== null,
          0,
        );
        loads.get("trivial Next page")?.push(trivialLoad);
        // Complete: every chip there and named (a chip shows "…" while its post's name loads).
        const calendar = await measure(
          browser,
          `${app.url}/calendar`,
          (n) => {
            // A day shows its first posts and "N more": the chips and the counts add up to the month.
            const names = [...document.querySelectorAll("[data-testid=calendar-item-post]")];
            const more = [...document.querySelectorAll("[data-testid=calendar-more]")].reduce(
              (sum, button) => sum + Number(button.getAttribute("data-count")),
              0,
            );
            return names.length + more >= n && names.every((name) => name.textContent !== "…");
          },
          count,
          signIn,
        );
        loads.get("calendar month")?.push(calendar);
        const analytics = await measure(
          browser,
          `${app.url}/brands/${brandId}/analytics`,
          () => document.querySelectorAll("[data-testid=series-chart]").length >= 2,
          0,
          signIn,
        );
        loads.get("brand analytics")?.push(analytics);
      }
    } finally {
      await browser.close();
    }
    const loadAfter = os.loadavg();
    const pages = firstLoadJs(path.join(ROOT, DIST_DIR), path.join(BASELINE_DIR, ".next"));
    const base = pages.baseline?.gzipBytes ?? Number.NaN;
    const js = (route: string) => pages.pages.find((p) => p.route === route)?.gzipBytes ?? Number.NaN;
    const trivialLongest = median((loads.get("trivial Next page") ?? []).map((l) => l.longest));
    const ms = (n: number) => (Number.isNaN(n) ? "—" : n.toFixed(1));
    const lines = [
      `pages: Chromium ${browser.version()} (${chromiumPath || "Playwright's"}), 1280×900, ${rounds} rounds, fresh context per load`,
      `load average ${loadBefore.map((n) => n.toFixed(2)).join(" ")} → ${loadAfter.map((n) => n.toFixed(2)).join(" ")} (1, 5, 15 min), ${os.cpus().length} cores`,
      "longest task: the page's renderer main thread (Chrome trace), navigation start → complete + 1 s; long tasks: the Long Tasks API's (over 50 ms only), same window: their number (the longest's ms)",
      "| page | LCP ms (median; per round) | longest task ms (median; per round) | vs trivial's longest | complete ms (per round) | long tasks (median; per round) |",
      "|---|---|---|---|---|---|",
    ];
    for (const [name, list] of loads) {
      const lcp = list.map((l) => Math.round(l.lcp));
      const longest = list.map((l) => l.longest);
      const tasks = list.map((l) => l.longTasks.length);
      const api = list.map((l) =>
        l.longTasks.length ? `${l.longTasks.length} (${Math.round(Math.max(...l.longTasks))})` : "0",
      );
      lines.push(
        `| ${name} | ${Math.round(median(lcp))}; ${lcp.join(" / ")} | ${ms(median(longest))}; ${longest.map(ms).join(" / ")} | ${(median(longest) / trivialLongest).toFixed(2)}× | ${list.map((l) => (Number.isNaN(l.complete) ? `> ${COMPLETE_TIMEOUT_MS}` : l.complete)).join(" / ")} | ${median(tasks)}; ${api.join(" / ")} |`,
      );
    }
    lines.push(
      `first-load JS (gzip): trivial ${(base / 1024).toFixed(1)} kB; /calendar ${(js("/calendar") / 1024).toFixed(1)} kB (${(js("/calendar") / base).toFixed(2)}×); /brands/[brandId]/analytics ${(js("/brands/[brandId]/analytics") / 1024).toFixed(1)} kB (${(js("/brands/[brandId]/analytics") / base).toFixed(2)}×)`,
    );
    // Goal 5, on the medians of the rounds.
    const checks = [
      ["calendar month", "/calendar"],
      ["brand analytics", "/brands/[brandId]/analytics"],
    ].flatMap(([name, route]) => {
      const list = loads.get(name) ?? [];
      const lcp = median(list.map((l) => l.lcp));
      const ratio = median(list.map((l) => l.longest)) / trivialLongest;
      const jsRatio = js(route) / base;
      const never = list.filter((l) => Number.isNaN(l.complete)).length;
      return [
        { what: `${name} complete in every round${never ? ` (not in ${never})` : ""}`, met: never === 0 },
        { what: `${name} LCP ${Math.round(lcp)} ms ≤ 1500`, met: lcp <= 1500 },
        { what: `${name} longest task ${ratio.toFixed(2)}× ≤ 1.5×`, met: ratio <= 1.5 },
        { what: `${name} first-load JS ${jsRatio.toFixed(2)}× ≤ 1.3×`, met: jsRatio <= 1.3 },
      ];
    });
    const missed = checks.filter((c) => !c.met);
    lines.push(
      `goal 5 (medians; the trivial page's longest task ${ms(trivialLongest)} ms, so ≤ ${ms(1.5 * trivialLongest)} ms): ${missed.length === 0 ? "MET" : "NOT MET"}; ${checks.map((c) => `${c.what} ${c.met ? "yes" : "NO"}`).join("; ")}`,
    );
    console.log(lines.join("\n"));
  } finally {
    await stopAll();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
