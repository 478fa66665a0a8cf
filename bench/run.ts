import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { firstLoadJs } from "./first-load";
import {
  cpuMs,
  type LoadResult,
  type LoadTarget,
  load,
  median,
  processHostRssMb,
  rssMb,
  sleep,
} from "./measure";
import { benchRender, type RenderBench } from "./render";
import { type TracingOnlyResult, writeReport, writeTracingSection } from "./report";
import {
  type AppSession,
  contentCreateLatencies,
  enqueueToRunning,
  getLatencies,
  IDLE_AFTER_MS,
  postLatencies,
  prepareSession,
  TRIVIAL_POST_WARM_UP,
  warmContentCreate,
} from "./scenarios";
import {
  BASELINE_DIR,
  buildAll,
  ROOT,
  type Running,
  startApp,
  startBareNode,
  startBaselineNext,
  startTraceSink,
  startWorker,
} from "./servers";
import { benchSlowModel, writeSlowModelSection } from "./slow-model";

/**
 * `npm run bench`: Brand Studio's production build next to two baselines started in the same run (a bare
 * node:http server and a trivial Next 16 route handler), on PGlite and on PostgreSQL, with interleaved
 * rounds and medians. Writes BENCHMARKS.md. Options:
 *   --rebuild          build the app and the baseline even if a build exists
 *   --pg <url>         PostgreSQL to create the bench databases in (default postgres://postgres@127.0.0.1:5432/postgres)
 *   --no-pg            PGlite only
 *   --seconds <n>      length of one autocannon run (default 4)
 *   --rounds <n>       interleaved rounds (default 3)
 *   --profile          run the PGlite server under `node --cpu-prof` and summarise where the time goes
 *   --tracing-only     only the tracing off/on comparison (trivial route, PGlite app with tracing off and
 *                      on): rewrites the "Tracing off and on" section of BENCHMARKS.md and keeps the rest
 *   --slow-model-only  only issue 44's slow-model cases (bench/slow-model.ts: first words of 50 streamed drafts,
 *                      200 creates at once): rewrites their section of BENCHMARKS.md and keeps the rest
 */
/** The tracing-on twins of the PGlite app: the default sampler (10 % of new traces), and every trace. */
const TRACED = "PGlite, tracing on";
const TRACED_ALL = "PGlite, tracing on, every trace";

/** The two tracing-on apps, each exporting to its own local OTLP receiver. */
async function startTracedApps(running: Running[]) {
  const sink = await startTraceSink();
  running.push(sink);
  const sinkAll = await startTraceSink();
  running.push(sinkAll);
  const otlp = (url: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
  });
  const traced = await startApp({ name: TRACED, env: otlp(sink.url) });
  running.push(traced);
  const tracedAll = await startApp({
    name: TRACED_ALL,
    env: { ...otlp(sinkAll.url), OTEL_TRACES_SAMPLER: "parentbased_always_on" },
  });
  running.push(tracedAll);
  return {
    apps: [traced, tracedAll],
    run: () => ({
      app: "PGlite",
      traced: TRACED,
      exports: sink.exports(),
      exportedBytes: sink.bytes(),
      tracedAll: TRACED_ALL,
      exportsAll: sinkAll.exports(),
      exportedBytesAll: sinkAll.bytes(),
    }),
  };
}

function option(name: string) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(name);

async function postgresReachable(url: string) {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

function commit() {
  try {
    const hash = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT })
      .toString()
      .trim();
    return dirty ? `${hash} (with uncommitted changes)` : hash;
  } catch {
    return "unknown";
  }
}

/** Poll 200, poll 304 and content/create for the trivial route and the PGlite app with tracing off and on. */
async function tracingOnly(seconds: number, rounds: number) {
  const started = Date.now();
  buildAll(flag("--rebuild"));
  const loadBefore = os.loadavg();
  const running: Running[] = [];
  const stopAll = () => Promise.allSettled(running.reverse().map((r) => r.stop()));
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    const trivial = await startBaselineNext();
    running.push(trivial);
    const pglite = await startApp({ name: "PGlite" });
    running.push(pglite);
    const traced = await startTracedApps(running);
    console.log("bench: servers up, preparing sessions …");
    const sessions = [await prepareSession(pglite)];
    for (const app of traced.apps) sessions.push(await prepareSession(app));
    await sleep(2000);
    const targets: LoadTarget[] = [
      { name: "trivial Next route", url: `${trivial.url}/api/bench`, status: 200, pid: trivial.pid },
    ];
    for (const s of sessions) {
      const auth = { authorization: `Bearer ${s.apiKey}` };
      const poll = `${s.server.url}/api/video/jobs/${s.jobId}`;
      targets.push(
        { name: `${s.server.name}: poll 200`, url: poll, headers: auth, status: 200, pid: s.server.pid },
        {
          name: `${s.server.name}: poll 304`,
          url: poll,
          headers: { ...auth, "if-none-match": s.etag },
          status: 304,
          pid: s.server.pid,
        },
      );
    }
    const throughput = await loadRounds(targets, rounds, seconds);
    const trivialLatency: number[] = [];
    const trivialPostLatency: number[] = [];
    const createLatency = new Map<string, number[]>(sessions.map((s) => [s.server.name, []]));
    // CPU per create too: on a loaded machine latency is mostly waiting for a core, CPU time is not.
    const createCpu = new Map<string, { ms: number; n: number }>(
      sessions.map((s) => [s.server.name, { ms: 0, n: 0 }]),
    );
    const CREATES = 30;
    for (const s of sessions) await warmContentCreate(s);
    await postLatencies(`${trivial.url}/api/bench`, TRIVIAL_POST_WARM_UP);
    for (let round = 0; round < rounds; round++) {
      console.log(`bench: content/create round ${round + 1}/${rounds}`);
      trivialLatency.push(median(await getLatencies(`${trivial.url}/api/bench`, 100)));
      trivialPostLatency.push(median(await postLatencies(`${trivial.url}/api/bench`, 100)));
      for (const s of sessions) {
        const cpuBefore = cpuMs(s.server.pid);
        createLatency
          .get(s.server.name)
          ?.push(median(await contentCreateLatencies(s, CREATES, round * 1000)));
        const cpu = createCpu.get(s.server.name);
        if (cpu) {
          cpu.ms += cpuMs(s.server.pid) - cpuBefore;
          cpu.n += CREATES;
        }
      }
    }
    await sleep(1500);
    const result: TracingOnlyResult = {
      commit: commit(),
      seconds,
      rounds,
      loadBefore,
      loadAfter: os.loadavg(),
      elapsedSeconds: Math.round((Date.now() - started) / 1000),
      throughput,
      contentCreate: {
        trivialP50: median(trivialLatency),
        trivialPostP50: median(trivialPostLatency),
        apps: sessions.map((s) => {
          const cpu = createCpu.get(s.server.name);
          return {
            name: s.server.name,
            p50: median(createLatency.get(s.server.name) ?? []),
            cpuPerReq: cpu && cpu.n > 0 ? cpu.ms / cpu.n : Number.NaN,
          };
        }),
      },
      tracing: traced.run(),
    };
    await stopAll();
    running.length = 0;
    writeTracingSection(result);
  } finally {
    await stopAll();
  }
}

/** Every target once per round, in a rotating order; the medians over rounds. */
async function loadRounds(targets: LoadTarget[], rounds: number, seconds: number) {
  // First one run of the same load per target, not measured: the goals judge a server that has warmed up,
  // and its first seconds under load are V8 compiling its hot paths (the traced app's first run cost up to
  // three times its later CPU per request; bench/notes.md, "Warm-up").
  for (const target of targets) {
    console.log(`bench: warm-up ${target.name}`);
    await load(target, seconds);
  }
  const loadRuns = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length];
      console.log(`bench: round ${round + 1}/${rounds} ${target.name}`);
      loadRuns.get(target.name)?.push(await load(target, seconds));
    }
  }
  return targets.map((t) => {
    const runs = loadRuns.get(t.name) ?? [];
    return {
      name: t.name,
      rps: median(runs.map((r) => r.rps)),
      p50: median(runs.map((r) => r.p50)),
      cpuPerReq: median(runs.map((r) => r.cpuPerReq)),
      runs: runs.map((r) => Math.round(r.rps)),
    };
  });
}

async function main() {
  const started = Date.now();
  const seconds = Number(option("--seconds") ?? 4);
  const rounds = Number(option("--rounds") ?? 3);
  if (flag("--tracing-only")) return tracingOnly(seconds, rounds);
  if (flag("--slow-model-only")) {
    buildAll(flag("--rebuild"));
    return writeSlowModelSection(await benchSlowModel({ profile: flag("--profile") }));
  }
  const pgBase = option("--pg") ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const usePg = !flag("--no-pg") && (await postgresReachable(pgBase));
  if (!usePg) console.log("bench: PostgreSQL not reachable (or --no-pg): PGlite only.");

  buildAll(flag("--rebuild"));
  const loadBefore = os.loadavg();
  const running: Running[] = [];
  const stopAll = () => Promise.allSettled(running.reverse().map((r) => r.stop()));
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    const bare = await startBareNode();
    running.push(bare);
    const trivial = await startBaselineNext();
    running.push(trivial);
    const pglite = await startApp({ name: "PGlite", cpuProfile: flag("--profile") });
    running.push(pglite);
    const pg = usePg ? await startApp({ name: "PostgreSQL", postgresUrl: pgBase }) : undefined;
    if (pg) running.push(pg);
    // The same PGlite app with tracing on (the default sampler, and every trace), exporting (protobuf, the
    // default batch delay) to local OTLP receivers: their rows beside the tracing-off ones state the overhead.
    const traced = await startTracedApps(running);
    console.log("bench: servers up, preparing sessions …");
    const sessions: AppSession[] = [await prepareSession(pglite)];
    if (pg) sessions.push(await prepareSession(pg));
    for (const app of traced.apps) sessions.push(await prepareSession(app));
    await sleep(2000);
    const rssStart = Object.fromEntries(running.map((r) => [r.name, rssMb(r.pid)]));

    // Throughput: every target once per round, in a rotating order, then the median over rounds.
    const targets: LoadTarget[] = [
      { name: "node:http", url: bare.url, status: 200, pid: bare.pid },
      { name: "trivial Next route", url: `${trivial.url}/api/bench`, status: 200, pid: trivial.pid },
    ];
    for (const s of sessions) {
      const auth = { authorization: `Bearer ${s.apiKey}` };
      const poll = `${s.server.url}/api/video/jobs/${s.jobId}`;
      targets.push(
        { name: `${s.server.name}: poll 200`, url: poll, headers: auth, status: 200, pid: s.server.pid },
        {
          name: `${s.server.name}: poll 304`,
          url: poll,
          headers: { ...auth, "if-none-match": s.etag },
          status: 304,
          pid: s.server.pid,
        },
        {
          name: `${s.server.name}: /api/health`,
          url: `${s.server.url}/api/health`,
          status: 200,
          pid: s.server.pid,
        },
      );
    }
    const throughput = await loadRounds(targets, rounds, seconds);

    // content/create at concurrency 1 against the trivial route's latency, interleaved, both warm.
    const trivialLatency: number[] = [];
    const trivialPostLatency: number[] = [];
    const createLatency = new Map<string, number[]>(sessions.map((s) => [s.server.name, []]));
    for (const s of sessions) await warmContentCreate(s);
    await postLatencies(`${trivial.url}/api/bench`, TRIVIAL_POST_WARM_UP);
    for (let round = 0; round < rounds; round++) {
      console.log(`bench: content/create round ${round + 1}/${rounds}`);
      trivialLatency.push(median(await getLatencies(`${trivial.url}/api/bench`, 100)));
      trivialPostLatency.push(median(await postLatencies(`${trivial.url}/api/bench`, 100)));
      for (const s of sessions) {
        createLatency.get(s.server.name)?.push(median(await contentCreateLatencies(s, 30, round * 1000)));
      }
    }
    const contentCreate = {
      trivialP50: median(trivialLatency),
      trivialPostP50: median(trivialPostLatency),
      apps: sessions.map((s) => ({
        name: s.server.name,
        p50: median(createLatency.get(s.server.name) ?? []),
      })),
    };

    const tracing = traced.run();

    // Enqueue → running: inline workers, then a separate worker process on PostgreSQL. Twenty samples each,
    // so the p95 (nearest rank) is the second slowest, not just the slowest of a handful.
    const QUEUE_SAMPLES = 20;
    const queue: { name: string; p50: number; p95: number; n: number }[] = [];
    for (const s of sessions) {
      if (s.server.name === TRACED || s.server.name === TRACED_ALL) continue;
      console.log(`bench: enqueue → running, ${s.server.name} inline`);
      queue.push({ name: `${s.server.name}, inline worker`, ...(await enqueueToRunning(s, QUEUE_SAMPLES)) });
    }
    if (pg) {
      const separate = await startApp({ name: "PostgreSQL, WORKER=off", postgresUrl: pgBase, worker: "off" });
      running.push(separate);
      const worker = await startWorker(separate);
      running.push({ name: "worker", url: "", pid: worker.pid, stop: worker.stop });
      console.log("bench: enqueue → running, PostgreSQL separate worker");
      const session = await prepareSession(separate);
      queue.push({
        name: "PostgreSQL, separate worker process",
        ...(await enqueueToRunning(session, QUEUE_SAMPLES)),
      });
    }

    // RSS 5 s after the last request, and again once the servers have been idle IDLE_AFTER_MS (the renders
    // below run meanwhile): V8 keeps a burst's garbage committed until its memory reducer sees allocation slow
    // down (bench/notes.md, "Idle RSS").
    const runEnded = Date.now();
    await sleep(5000);
    const rssAfterRun = Object.fromEntries(running.map((r) => [r.name, rssMb(r.pid)]));
    let pages: ReturnType<typeof firstLoadJs> = { baseline: undefined, pages: [] };
    try {
      pages = firstLoadJs(path.join(ROOT, ".next-test"), path.join(BASELINE_DIR, ".next"));
    } catch (error) {
      console.error("bench: first-load JS not measured:", error);
    }
    // The render last, with the servers idle: it measures against a plain ffmpeg encode in the same run.
    let render: RenderBench | string;
    try {
      console.log("bench: render vs a plain ffmpeg encode");
      render = await benchRender();
    } catch (error) {
      render = `The render bench failed: ${(error as Error).message}`;
    }
    let fullRender: RenderBench | string;
    try {
      console.log("bench: the full render (images in motion, captions, logo, music) vs a plain encode");
      fullRender = await benchRender({ full: true });
    } catch (error) {
      fullRender = `The full render bench failed: ${(error as Error).message}`;
    }
    await sleep(Math.max(0, IDLE_AFTER_MS - (Date.now() - runEnded)));
    const rssIdle = Object.fromEntries(running.map((r) => [r.name, rssMb(r.pid)]));
    const hostRssIdle = processHostRssMb(pglite.pid);
    const loadAfter = os.loadavg();
    await stopAll();
    running.length = 0;
    const profile = pglite.cpuProfileDir;
    writeReport({
      commit: commit(),
      seconds,
      rounds,
      loadBefore,
      loadAfter,
      elapsedSeconds: Math.round((Date.now() - started) / 1000),
      throughput,
      contentCreate,
      tracing,
      queue,
      rssStart,
      rssAfterRun,
      rssIdle,
      hostRssIdle,
      pages,
      render,
      fullRender,
      profileDir: profile,
    });
    // Its own server and OpenAI fake, after the rest (its section is added to the report just written).
    writeSlowModelSection(await benchSlowModel());
  } finally {
    await stopAll();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
