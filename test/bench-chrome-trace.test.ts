import { describe, expect, it } from "vitest";
import { COMPLETE_MARK, pageMainThread, type TraceEvent, tasksBetween } from "../bench/chrome-trace";

// bench:pages takes each load's longest task from a Chrome trace: the page's renderer main thread only.
const URL = "http://127.0.0.1:4000/calendar";
const thread = (pid: number, tid: number, name: string): TraceEvent => ({
  name: "thread_name",
  cat: "__metadata",
  ph: "M",
  ts: 0,
  pid,
  tid,
  args: { name },
});
const task = (pid: number, tid: number, ts: number, ms: number, name = "RunTask"): TraceEvent => ({
  name,
  cat: "toplevel",
  ph: "X",
  ts,
  dur: ms * 1000,
  pid,
  tid,
});
const navigationStart = (pid: number, tid: number, ts: number, url: string): TraceEvent => ({
  name: "navigationStart",
  cat: "blink.user_timing",
  ph: "R",
  ts,
  pid,
  tid,
  args: { data: { documentLoaderURL: url, isLoadingMainFrame: true } },
});

// Browser 1, GPU 2, the initial about:blank's renderer 3, the page's renderer 4 (a worker thread in it).
const events: TraceEvent[] = [
  thread(1, 1, "CrBrowserMain"),
  thread(2, 2, "CrGpuMain"),
  thread(3, 3, "CrRendererMain"),
  thread(4, 4, "CrRendererMain"),
  thread(4, 9, "DedicatedWorker thread"),
  navigationStart(3, 3, 500, ""),
  task(3, 3, 600, 400),
  navigationStart(4, 4, 1_000_000, URL),
  task(1, 1, 1_100_000, 300),
  task(2, 2, 1_200_000, 250),
  task(4, 9, 1_300_000, 200),
  task(4, 4, 900_000, 90), // before the navigation started: not the page's
  task(4, 4, 1_050_000, 20),
  // A task and the one nested in it (a nested run loop), with the scheduler's own event around both.
  task(4, 4, 1_100_000, 40, "ThreadControllerImpl::RunTask"),
  task(4, 4, 1_100_000, 39.5),
  task(4, 4, 1_110_000, 12),
  task(4, 4, 1_200_000, 8),
  { name: COMPLETE_MARK, cat: "blink.user_timing", ph: "I", ts: 1_500_000, pid: 4, tid: 4 },
  task(4, 4, 2_400_000, 30), // within the second after complete
  task(4, 4, 2_600_000, 70), // after it
];

describe("the bench's Chrome trace", () => {
  it("finds the renderer main thread that loaded the page, its navigation start and complete mark", () => {
    const main = pageMainThread(events, URL);
    expect([main.pid, main.tid, main.navigationStart, main.complete]).toEqual([4, 4, 1_000_000, 1_500_000]);
    expect(pageMainThread(events).pid).toBe(4);
    expect(() => pageMainThread(events, "http://127.0.0.1:4000/other")).toThrow(/no main-frame/);
  });

  it("refuses a navigationStart on a thread that is not a renderer's main thread", () => {
    const odd = [
      ...events.filter((e) => e.name !== "thread_name" || e.pid !== 4),
      thread(4, 4, "Compositor"),
    ];
    expect(() => pageMainThread(odd, URL)).toThrow(/not CrRendererMain/);
  });

  it("gives the outermost tasks of that thread in the window, longest first", () => {
    const main = pageMainThread(events, URL);
    const tasks = tasksBetween(main, main.navigationStart, (main.complete ?? 0) + 1_000_000);
    expect(tasks.map((t) => [t.ts, (t.dur ?? 0) / 1000])).toEqual([
      [1_100_000, 40],
      [2_400_000, 30],
      [1_050_000, 20],
      [1_200_000, 8],
    ]);
  });
});
