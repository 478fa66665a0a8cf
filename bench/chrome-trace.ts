import type { Page } from "@playwright/test";

/**
 * A Chrome trace of one page's load over CDP (`Tracing.start` on the page's own session), shared by
 * bench/pages.ts (the longest main-thread task per load) and bench/pages-profile.ts (what ran in the long ones).
 */
export type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  id?: string;
  args?: {
    name?: string;
    frame?: string;
    data?: {
      documentLoaderURL?: string;
      isLoadingMainFrame?: boolean;
      startTime?: number;
      cpuProfile?: {
        nodes?: {
          id: number;
          parent?: number;
          callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
        }[];
        samples?: number[];
      };
      timeDeltas?: number[];
    };
  };
};

/**
 * Tasks and the page's marks: `toplevel` has the scheduler's tasks (`ThreadControllerImpl::RunTask`), the
 * DevTools timeline ones `RunTask` and what runs inside, `blink.user_timing` `navigationStart` and
 * `performance.mark`s. No V8 sampling (it lengthens the tasks it samples).
 */
export const TIMELINE_CATEGORIES = [
  "-*",
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink.user_timing",
];
/** The timeline and V8's sampling profiler, for which JavaScript ran in a task. */
export const PROFILE_CATEGORIES = [
  ...TIMELINE_CATEGORIES,
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
];

/** The page's mark when it is complete (the bench's own definition per page), for the trace's window. */
export const COMPLETE_MARK = "bench:complete";

/** Starts tracing; the returned function stops it and gives the trace's events. */
export async function startTrace(page: Page, categories = TIMELINE_CATEGORIES) {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", ({ value }) => {
    events.push(...(value as unknown as TraceEvent[]));
  });
  await cdp.send("Tracing.start", {
    categories: categories.join(","),
    transferMode: "ReportEvents",
  });
  return async () => {
    const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await done;
    await cdp.detach().catch(() => {});
    return events;
  };
}

const isTask = (e: TraceEvent) =>
  e.ph === "X" &&
  typeof e.dur === "number" &&
  (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask");

export type MainThread = {
  pid: number;
  tid: number;
  /** Navigation start of the page's document (µs, the trace's clock). */
  navigationStart: number;
  /** The page's `COMPLETE_MARK`, if it got there. */
  complete?: number;
  /** The thread's events, in time order. */
  events: TraceEvent[];
};

/**
 * The renderer main thread of the process that loaded `url` (by default, the last document loaded from a
 * URL) in the main frame: the thread of the last `navigationStart` of a main-frame document at that URL
 * (Blink emits it on the main thread of the document's own renderer), checked to be named CrRendererMain.
 * The browser and GPU processes, other renderers (the initial about:blank's, if the navigation changed
 * process) and worker threads are not that thread.
 */
export function pageMainThread(events: TraceEvent[], url?: string): MainThread {
  const starts = events.filter(
    (e) =>
      e.name === "navigationStart" &&
      e.args?.data?.isLoadingMainFrame === true &&
      (url === undefined ? Boolean(e.args.data.documentLoaderURL) : e.args.data.documentLoaderURL === url),
  );
  const start = starts.sort((a, b) => a.ts - b.ts).at(-1);
  if (!start)
    throw new Error(`trace: no main-frame navigationStart for ${url ?? "a URL"} (${events.length} events)`);
  const { pid, tid } = start;
  const name = events.find((e) => e.ph === "M" && e.name === "thread_name" && e.pid === pid && e.tid === tid)
    ?.args?.name;
  if (name !== "CrRendererMain")
    throw new Error(
      `trace: ${url}'s navigationStart is on thread "${name}" (${pid}:${tid}), not CrRendererMain`,
    );
  const thread = events.filter((e) => e.pid === pid && e.tid === tid).sort((a, b) => a.ts - b.ts);
  const complete = thread.find((e) => e.name === COMPLETE_MARK && e.ts >= start.ts)?.ts;
  return { pid, tid, navigationStart: start.ts, complete, events: thread };
}

/**
 * The thread's tasks (outermost only: a nested run loop's tasks are inside their outer one) that overlap
 * [from, to] (µs), longest first.
 */
export function tasksBetween(thread: MainThread, from: number, to: number) {
  const tasks = thread.events.filter(isTask);
  const outer: TraceEvent[] = [];
  let end = Number.NEGATIVE_INFINITY;
  for (const task of tasks) {
    // In time order: a task that starts inside the last outer one is nested in it (a thread's tasks do not
    // overlap otherwise).
    if (task.ts < end) {
      const last = outer[outer.length - 1];
      if (task.ts === last.ts && (task.dur ?? 0) > (last.dur ?? 0)) {
        outer[outer.length - 1] = task;
        end = task.ts + (task.dur ?? 0);
      }
      continue;
    }
    outer.push(task);
    end = task.ts + (task.dur ?? 0);
  }
  return outer
    .filter((t) => t.ts < to && t.ts + (t.dur ?? 0) > from)
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
}
