import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { cpuMs, percentile, rssMb, sleep } from "./measure";
import { summariseProfile } from "./profile";
import { type AppSession, createBody, prepareSession } from "./scenarios";
import { type AppServer, type Running, startApp, startBaselineNext } from "./servers";

/**
 * Issue 44, goals 1 and 2: the app against a hosted model that takes its time, the OpenAI fake of the tests
 * (test/support/fake-openai.ts) slowed to a model's pace, in a process of its own (bench/fake-model-process.ts).
 *  - First words: `STREAMS` drafts streamed at once (POST /api/content/create/stream), the model's first token
 *    after FIRST_TOKEN_MS and then TOKENS_PER_SECOND. Per request, the fake notes when it wrote the first token
 *    and the client when the first NDJSON event arrived (both epoch ms: `performance.timeOrigin` + now); the goal
 *    is p95(client's first event − model's first token) ≤ 30 ms.
 *  - A busy moment: `CREATES` non-streamed creates (POST /api/content/create) at once, the model answering each
 *    after ANSWER_MS. Goal: every one 201 (or 429 `rate_limited` past the bench's limit), p95 ≤ 1.15× the
 *    model's latency, and the server's RSS (VmRSS, sampled every 50 ms) ≤ 450 MB on PGlite.
 * One PGlite app, tracing off, with OPENAI_BASE_URL at the fake and a key (so briefs and drafts also go to
 * its /moderations, as with OpenAI).
 */
export const FIRST_TOKEN_MS = 300;
export const TOKENS_PER_SECOND = 20;
export const STREAMS = 50;
export const ANSWER_MS = 1500;
export const CREATES = 200;
/** The generate limit for the bench's API key: above the run's own creates, so none should be refused. */
export const GENERATE_LIMIT = 1000;

export type SlowModelResult = {
  firstWords: {
    n: number;
    /** Client's first event − the model's first token, ms. */
    gapP50: number;
    gapP95: number;
    gapMax: number;
    /** From sending the request to the client's first event, ms. */
    firstEventP50: number;
    firstEventP95: number;
    /** From sending the request to `done`, ms. */
    doneP95: number;
    contentEncoding: string;
    failures: string[];
    /** The server's CPU time per streamed draft. */
    cpuPerStream: number;
  };
  busy: {
    n: number;
    statuses: Record<string, number>;
    p50: number;
    p95: number;
    max: number;
    rssStart: number;
    rssPeak: number;
    /** The server's CPU time per create. */
    cpuPerCreate: number;
  };
  /** One create at a time against the same fake: the floor under the busy moment's latency. */
  aloneP50: number;
  /** The trivial Next app's routes that only ask the model, through the same two moments. */
  floor: {
    gapP50: number;
    gapP95: number;
    failures: number;
    busyP50: number;
    busyP95: number;
    rssPeak: number;
    cpuPerStream: number;
    cpuPerCreate: number;
  };
  loadBefore: number[];
  loadAfter: number[];
  profile?: string;
};

type Pace = { firstTokenMs: number; tokensPerSecond: number; answerMs: number };

/** bench/fake-model-process.ts: the OpenAI fake in its own process, and its control server. */
async function startModel() {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "fake-model-process.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = await Promise.race([
    once(readline.createInterface({ input: child.stdout }), "line") as Promise<[string]>,
    once(child, "exit").then(([code]) => Promise.reject(new Error(`The fake model exited with ${code}.`))),
  ]);
  const { url, control } = JSON.parse(line) as { url: string; control: string };
  return {
    url,
    /** Forgets what it recorded and takes this pace. */
    pace: async (pace: Pace) => {
      await fetch(`${control}/pace`, { method: "POST", body: JSON.stringify(pace) });
    },
    /** Per streamed answer since the last pace: the brief's topic and when its first token was written (epoch ms). */
    firstTokens: async () =>
      (await (await fetch(`${control}/first-tokens`)).json()) as { topic: string; at: number }[],
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
type Model = Awaited<ReturnType<typeof startModel>>;

/** Now, in epoch milliseconds with a fraction: comparable with the fake model's process. */
const now = () => performance.timeOrigin + performance.now();

/** Where the drafts go: Brand Studio's create routes, or the baseline's floor routes that only ask the model. */
type Target = {
  url: string;
  createPath: string;
  streamPath: string;
  headers: Record<string, string>;
  brandId: string;
  /** Whether a stream's whole text ended as it should. */
  finished: (text: string) => boolean;
};

const appTarget = (s: AppSession): Target => ({
  url: s.server.url,
  createPath: "/api/content/create",
  streamPath: "/api/content/create/stream",
  headers: { authorization: `Bearer ${s.apiKey}` },
  brandId: s.brandId,
  finished: (text) => {
    try {
      return JSON.parse(text.trim().split("\n").at(-1) ?? "{}").type === "done";
    } catch {
      return false;
    }
  },
});

const floorTarget = (baseline: Running): Target => ({
  url: baseline.url,
  createPath: "/api/bench/draft",
  streamPath: "/api/bench/draft/stream",
  headers: {},
  brandId: "brd_floor",
  finished: (text) => text.trimEnd().endsWith("data: [DONE]"),
});

// A connection per request (a kept-alive socket the server has closed meanwhile would fail a request).
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/** One streamed draft: when its first event and its `done` arrived, and any failure. */
function streamDraft(t: Target, topic: string) {
  return new Promise<{ sent: number; firstEvent: number; done: number; encoding: string; error?: string }>(
    (resolve, reject) => {
      const sent = now();
      let firstEvent = Number.NaN;
      let text = "";
      const req = http.request(
        `${t.url}${t.streamPath}`,
        {
          method: "POST",
          agent,
          headers: {
            ...t.headers,
            "content-type": "application/json",
            accept: "application/x-ndjson",
            // What a browser sends: a compressing server would show here as a late first event.
            "accept-encoding": "gzip, deflate, br",
          },
        },
        (res) => {
          const encoding = String(res.headers["content-encoding"] ?? "identity");
          res.on("data", (chunk: Buffer) => {
            if (Number.isNaN(firstEvent)) firstEvent = now();
            text += chunk.toString("utf8");
          });
          res.on("end", () => {
            resolve({
              sent,
              firstEvent,
              done: now(),
              encoding,
              error:
                res.statusCode !== 200 || !t.finished(text)
                  ? `${res.statusCode} ${text.slice(-120).replace(/\s+/g, " ")}`
                  : undefined,
            });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ ...createBody(t.brandId, 0, 0), channel: "linkedin", topic }));
    },
  );
}

function create(t: Target, i: number) {
  return new Promise<{ status: number; ms: number; body: string }>((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      `${t.url}${t.createPath}`,
      {
        method: "POST",
        agent,
        headers: { ...t.headers, "content-type": "application/json" },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(createBody(t.brandId, i, 700_000)));
  });
}

async function firstWords(t: Target, fake: Model, run: number) {
  await fake.pace({ firstTokenMs: FIRST_TOKEN_MS, tokensPerSecond: TOKENS_PER_SECOND, answerMs: 0 });
  const topics = Array.from({ length: STREAMS }, (_, i) => `Our new Ethiopian roast, stream ${run}-${i}`);
  const results = await Promise.all(topics.map((topic) => streamDraft(t, topic)));
  const firstToken = new Map((await fake.firstTokens()).map((t) => [t.topic, t.at]));
  const gaps: number[] = [];
  const failures: string[] = [];
  results.forEach((r, i) => {
    const model = firstToken.get(topics[i]);
    if (r.error || model === undefined) failures.push(r.error ?? `no model call for ${topics[i]}`);
    else gaps.push(r.firstEvent - model);
  });
  return { results, gaps, failures };
}

async function busyMoment(t: Target, pid: number, fake: Model) {
  await fake.pace({ firstTokenMs: 0, tokensPerSecond: 0, answerMs: ANSWER_MS });
  const rssStart = rssMb(pid);
  let rssPeak = rssStart;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(pid));
  }, 50);
  try {
    const answers = await Promise.all(Array.from({ length: CREATES }, (_, i) => create(t, i)));
    rssPeak = Math.max(rssPeak, rssMb(pid));
    return { answers, rssStart, rssPeak };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The same two moments against the trivial Next app's draft routes (bench/baseline-next/app/api/bench/draft),
 * which only ask the model: the framework's own floor on this machine, in this run.
 */
async function floor(fake: Model): Promise<SlowModelResult["floor"]> {
  const baseline = await startBaselineNext({ BENCH_MODEL_URL: fake.url });
  try {
    const t = floorTarget(baseline);
    await fake.pace({ firstTokenMs: 0, tokensPerSecond: 0, answerMs: 0 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => streamDraft(t, `warm-up ${i}`)));
    for (let i = 0; i < 10; i++) await create(t, 900 + i);
    const streamCpu = cpuMs(baseline.pid);
    const runs = [await firstWords(t, fake, 1), await firstWords(t, fake, 2)];
    const cpuPerStream = (cpuMs(baseline.pid) - streamCpu) / (2 * STREAMS);
    const gaps = runs.flatMap((r) => r.gaps);
    await sleep(2000);
    const busyCpu = cpuMs(baseline.pid);
    const busy = await busyMoment(t, baseline.pid, fake);
    const ms = busy.answers.map((a) => a.ms);
    return {
      gapP50: percentile(gaps, 0.5),
      gapP95: percentile(gaps, 0.95),
      failures: runs.flatMap((r) => r.failures).length + busy.answers.filter((a) => a.status !== 201).length,
      busyP50: percentile(ms, 0.5),
      busyP95: percentile(ms, 0.95),
      rssPeak: busy.rssPeak,
      cpuPerStream,
      cpuPerCreate: (cpuMs(baseline.pid) - busyCpu) / CREATES,
    };
  } finally {
    await baseline.stop();
  }
}

export async function benchSlowModel(options: { profile?: boolean } = {}): Promise<SlowModelResult> {
  const fake = await startModel();
  let app: AppServer | undefined;
  try {
    console.log("bench: slow model, the framework's floor (trivial Next app, the model only) …");
    const floorResult = await floor(fake);
    app = await startApp({
      name: "PGlite, slow model",
      cpuProfile: options.profile,
      env: {
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: "sk-bench",
        RATE_LIMIT_GENERATE_PER_MINUTE: String(GENERATE_LIMIT),
      },
    });
    console.log("bench: slow model, preparing the session …");
    const s = appTarget(await prepareSession(app));
    // Warm-up, not measured: a few streams and creates at the model's full speed.
    await fake.pace({ firstTokenMs: 0, tokensPerSecond: 0, answerMs: 0 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => streamDraft(s, `warm-up ${i}`)));
    for (let i = 0; i < 10; i++) await create(s, 900 + i);
    const loadBefore = os.loadavg();

    console.log(`bench: first words, ${STREAMS} streams at once`);
    const streamCpu = cpuMs(app.pid);
    const runs = [await firstWords(s, fake, 1), await firstWords(s, fake, 2)];
    const cpuPerStream = (cpuMs(app.pid) - streamCpu) / (2 * STREAMS);
    const gaps = runs.flatMap((r) => r.gaps);
    const results = runs.flatMap((r) => r.results);
    await sleep(2000);

    console.log("bench: one create at a time against the same model");
    await fake.pace({ firstTokenMs: 0, tokensPerSecond: 0, answerMs: ANSWER_MS });
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) alone.push((await create(s, 800 + i)).ms);
    await sleep(2000);

    console.log(`bench: a busy moment, ${CREATES} creates at once`);
    const busyCpu = cpuMs(app.pid);
    const busy = await busyMoment(s, app.pid, fake);
    const cpuPerCreate = (cpuMs(app.pid) - busyCpu) / CREATES;
    const statuses: Record<string, number> = {};
    for (const a of busy.answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    const unexpected = busy.answers.find(
      (a) => a.status !== 201 && !(a.status === 429 && a.body.includes("rate_limited")),
    );
    if (unexpected) console.error(`bench: a create answered ${unexpected.status}: ${unexpected.body}`);
    const ms = busy.answers.map((a) => a.ms);
    const loadAfter = os.loadavg();
    const dir = app.cpuProfileDir;
    await app.stop();
    app = undefined;
    let profile: string | undefined;
    if (dir) {
      await sleep(500);
      profile = summariseProfile(dir);
    }
    return {
      firstWords: {
        n: gaps.length,
        gapP50: percentile(gaps, 0.5),
        gapP95: percentile(gaps, 0.95),
        gapMax: Math.max(...gaps),
        firstEventP50: percentile(
          results.map((r) => r.firstEvent - r.sent),
          0.5,
        ),
        firstEventP95: percentile(
          results.map((r) => r.firstEvent - r.sent),
          0.95,
        ),
        doneP95: percentile(
          results.map((r) => r.done - r.sent),
          0.95,
        ),
        contentEncoding: [...new Set(results.map((r) => r.encoding))].join(", "),
        failures: runs.flatMap((r) => r.failures),
        cpuPerStream,
      },
      busy: {
        n: busy.answers.length,
        statuses,
        p50: percentile(ms, 0.5),
        p95: percentile(ms, 0.95),
        max: Math.max(...ms),
        rssStart: busy.rssStart,
        rssPeak: busy.rssPeak,
        cpuPerCreate,
      },
      aloneP50: percentile(alone, 0.5),
      floor: floorResult,
      loadBefore,
      loadAfter,
      profile,
    };
  } finally {
    await app?.stop();
    await fake.close();
  }
}

const count = (items: string[]) => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
};
const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");
const goal = (ok: boolean) => (ok ? "met" : "**not met**");

export function slowModelSection(r: SlowModelResult) {
  const fw = r.firstWords;
  const b = r.busy;
  const allAnswered = Object.keys(b.statuses).every((status) => status === "201" || status === "429");
  return `## A slow model: first words and a busy moment (issue 44)

${new Date().toISOString()}, load average before ${r.loadBefore.map(f2).join(" / ")}, after ${r.loadAfter.map(f2).join(" / ")}.
One PGlite app (tracing off) with \`OPENAI_BASE_URL\` at the OpenAI fake of the tests (test/support/fake-openai.ts,
in a process of its own) and a key, so each brief and draft also goes to its \`/moderations\`. Baselines are the
model's own: its first token as the fake wrote it, and its answer time.

| goal | target | measured | |
|---|---|---|---|
| first words: client's first event − model's first token, ${STREAMS} streams at once (first token after ${FIRST_TOKEN_MS} ms, then ${TOKENS_PER_SECOND} tokens/s) | p95 ≤ 30 ms | p95 ${f0(fw.gapP95)} ms (p50 ${f0(fw.gapP50)}, max ${f0(fw.gapMax)}; n ${fw.n}, ${fw.failures.length} failed; the framework's floor below: ${f0(r.floor.gapP95)} ms) | ${goal(fw.gapP95 <= 30 && fw.failures.length === 0)} |
| a busy moment: ${CREATES} creates at once, the model answering in ${ANSWER_MS} ms | all 201 (or 429 past the limit) | ${Object.entries(
    b.statuses,
  )
    .map(([status, n]) => `${n} × ${status}`)
    .join(", ")} | ${goal(allAnswered)} |
| the same, latency | p95 ≤ 1.15× the model's ${ANSWER_MS} ms | p95 ${f0(b.p95)} ms = ${f2(b.p95 / ANSWER_MS)}× (p50 ${f0(b.p50)}, max ${f0(b.max)}; one at a time ${f0(r.aloneP50)} ms = ${f2(r.aloneP50 / ANSWER_MS)}×; the framework's floor below: ${f2(r.floor.busyP95 / ANSWER_MS)}×) | ${goal(b.p95 <= 1.15 * ANSWER_MS)} |
| the same, server RSS (VmRSS every 50 ms) | ≤ 450 MB | peak ${b.rssPeak} MB (${b.rssStart} MB before) | ${goal(b.rssPeak <= 450)} |

Streams: request → first event p50 ${f0(fw.firstEventP50)} ms, p95 ${f0(fw.firstEventP95)} ms; request → \`done\` p95
${f0(fw.doneP95)} ms; the answers' Content-Encoding: ${fw.contentEncoding} (asked with \`Accept-Encoding: gzip, deflate, br\`).
Server CPU: ${f2(fw.cpuPerStream)} ms per streamed draft, ${f2(b.cpuPerCreate)} ms per create (so ${CREATES} creates need
${f0(b.cpuPerCreate * CREATES)} ms of CPU on top of the model's ${ANSWER_MS} ms, against the goal's ${f0(0.15 * ANSWER_MS)} ms of slack).
The framework's floor, in the same run: the trivial Next app (bench/baseline-next) with two routes that only
ask the same model (no validation, moderation, database or images; \`api/bench/draft\` and \`draft/stream\`, which
passes the model's events straight on):

| moment | floor | Brand Studio |
|---|---|---|
| first words, p95 gap (p50) | ${f0(r.floor.gapP95)} ms (${f0(r.floor.gapP50)}) | ${f0(fw.gapP95)} ms (${f0(fw.gapP50)}) |
| busy moment, p95 (p50), as a multiple of the model's ${ANSWER_MS} ms | ${f2(r.floor.busyP95 / ANSWER_MS)}× (${f2(r.floor.busyP50 / ANSWER_MS)}×) | ${f2(b.p95 / ANSWER_MS)}× (${f2(b.p50 / ANSWER_MS)}×) |
| busy moment, RSS peak | ${r.floor.rssPeak} MB | ${b.rssPeak} MB |
| server CPU per stream / per create | ${f2(r.floor.cpuPerStream)} / ${f2(r.floor.cpuPerCreate)} ms | ${f2(fw.cpuPerStream)} / ${f2(b.cpuPerCreate)} ms |
${r.floor.failures ? `\nThe floor's routes failed ${r.floor.failures} times.\n` : ""}
Two rounds of ${STREAMS}; the generate limit is set to ${GENERATE_LIMIT} a minute for the bench's key
(\`RATE_LIMIT_GENERATE_PER_MINUTE\`).
${
  fw.failures.length
    ? `\nFailed streams, by their status and error: ${Object.entries(count(fw.failures))
        .map(([failure, n]) => `${n} × ${failure}`)
        .join(", ")}.\n`
    : ""
}${r.profile ? `\nWhere the time goes (\`--profile\`):\n\n${r.profile}\n` : ""}`;
}

/** Replaces this section of BENCHMARKS.md (or puts it before "Enqueue → running"), leaving the rest. */
export function writeSlowModelSection(r: SlowModelResult) {
  const section = slowModelSection(r);
  const file = path.join(__dirname, "..", "BENCHMARKS.md");
  const text = fs.readFileSync(file, "utf8");
  const title = "## A slow model: first words and a busy moment";
  const start = text.indexOf(title);
  let updated: string;
  if (start >= 0) {
    const next = text.indexOf("\n## ", start + 1);
    updated = `${text.slice(0, start)}${section}${next >= 0 ? text.slice(next) : ""}`;
  } else {
    const before = text.indexOf("## Enqueue → running");
    updated =
      before >= 0 ? `${text.slice(0, before)}${section}\n${text.slice(before)}` : `${text}\n${section}`;
  }
  fs.writeFileSync(file, updated);
  console.log(section);
}
