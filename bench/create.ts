import os from "node:os";
import { signInAsDemo } from "../test/support/auth";
import { cpuMs, median, sleep, timedRequest } from "./measure";
import { summariseProfile } from "./profile";
import { contentCreateLatencies, createBody, postLatencies } from "./scenarios";
import { type AppServer, buildAll, type Running, startApp, startBaselineNext } from "./servers";

/**
 * `node --conditions=react-server --import tsx bench/create.ts [--pg <url>] [--rounds n] [--n n] [--profile]`:
 * content/create alone, against the trivial Next route in the same run, without the rest of the bench (no video
 * job, no throughput runs). Per round: 100 trivial GETs; 100 POSTs of a create's body to the trivial route (the
 * framework's floor under a create: Next reading a JSON body and answering 201); then `n` creates on each app
 * (concurrency 1), with the server's CPU time per create. Prints the medians and the load average. Needs the
 * builds `npm run bench` makes.
 * `--floors` also measures, per app and round, the same route refused before any work: without a key (401: Next,
 * the API gate, withApi, the envelope) and with a key but a body that fails its contract (400: the same plus the
 * API key's check, reading the body and zod). What a create costs above the second is its own work.
 * `--before <checkout>` also runs that checkout's build on PGlite (say a worktree of an older commit, built
 * with `NEXT_DIST_DIR=.next-test npx next build`; PGlite migrates itself from its own checkout), in the same
 * rounds. Not on PostgreSQL: this checkout's `db:migrate` would give the older app newer migrations.
 * `--languages` also measures, per app and round, a create in three languages (en, es, de, the built-in model)
 * beside a one-language create of the same brief: issue 42's goal is at most 2.5× (the three drafts are written
 * in parallel and saved in one statement).
 */
function option(name: string) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function session(server: AppServer) {
  const { accessToken } = await signInAsDemo(server.url);
  const auth = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  const key = await timedRequest(`${server.url}/api/keys`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "bench" }),
  });
  const apiKey = JSON.parse(key.body).key as string;
  const brands = JSON.parse((await timedRequest(`${server.url}/api/brands`, { headers: auth })).body);
  return { server, apiKey, brandId: brands.items[0].brandId as string };
}

/** p50 of `n` POSTs to content/create that are refused with `status` (the body or the key makes them fail). */
async function refusedCreates(s: Awaited<ReturnType<typeof session>>, n: number, status: 400 | 401) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (status === 400) headers.authorization = `Bearer ${s.apiKey}`;
  // A 401 carries a create's whole body; a 400 only the brand, so the contract refuses it (no topic).
  const body = JSON.stringify(status === 401 ? createBody(s.brandId, 0, 0) : { brandId: s.brandId });
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await timedRequest(`${s.server.url}/api/content/create`, {
      method: "POST",
      headers,
      body,
    });
    if (response.status !== status)
      throw new Error(`expected ${status}, got ${response.status} ${response.body}`);
    samples.push(response.ms);
  }
  return median(samples);
}

async function creates(s: Awaited<ReturnType<typeof session>>, n: number, seedBase: number) {
  const cpuBefore = cpuMs(s.server.pid);
  // The bench's own loop; this script makes no video job, so the session has none to poll.
  const samples = await contentCreateLatencies({ ...s, token: "", jobId: "", etag: "" }, n, seedBase);
  return { p50: median(samples), cpu: (cpuMs(s.server.pid) - cpuBefore) / n };
}

const LANGUAGES = ["en", "es", "de"];

/** p50 of `n` creates of the same brief in `languages` (the brand must speak them). */
async function languageCreates(s: Awaited<ReturnType<typeof session>>, n: number, languages: string[]) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await timedRequest(`${s.server.url}/api/content/create`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ ...createBody(s.brandId, i, 50_000), languages }),
    });
    if (response.status !== 201)
      throw new Error(`create in ${languages} answered ${response.status}: ${response.body}`);
    samples.push(response.ms);
  }
  return median(samples);
}

async function main() {
  const rounds = Number(option("--rounds") ?? 5);
  const n = Number(option("--n") ?? 40);
  const pg = option("--pg");
  const profile = process.argv.includes("--profile");
  const floors = process.argv.includes("--floors");
  const multilingual = process.argv.includes("--languages");
  /** A checkout of an older commit with its own .next-test build: its apps run beside these, interleaved. */
  const before = option("--before");
  buildAll(false);
  const running: Running[] = [];
  try {
    const trivial = await startBaselineNext();
    running.push(trivial);
    const apps = [await startApp({ name: "PGlite", cpuProfile: profile })];
    running.push(apps[0]);
    if (before) {
      apps.push(await startApp({ name: "PGlite (before)", root: before }));
      running.push(apps[apps.length - 1]);
    }
    if (pg) {
      apps.push(await startApp({ name: "PostgreSQL", postgresUrl: pg }));
      running.push(apps[apps.length - 1]);
    }
    const sessions = [];
    for (const app of apps) sessions.push(await session(app));
    if (multilingual) {
      for (const s of sessions) {
        const patched = await timedRequest(`${s.server.url}/api/brands/${s.brandId}`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ languages: LANGUAGES }),
        });
        if (patched.status !== 200)
          throw new Error(`PATCH languages answered ${patched.status}: ${patched.body}`);
      }
    }
    // Warm-up, not measured: --warm creates per app and ten times as many trivial GETs.
    const warm = Number(option("--warm") ?? 30);
    for (const s of sessions) {
      await creates(s, warm, 90_000);
      if (floors) for (const status of [400, 401] as const) await refusedCreates(s, warm, status);
    }
    for (let i = 0; i < warm * 10; i++) await timedRequest(`${trivial.url}/api/bench`);
    await postLatencies(`${trivial.url}/api/bench`, warm * 10);
    console.log(
      `load before: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" / ")}`,
    );
    const rows: string[] = [];
    const windowStart = process.hrtime.bigint() / 1000n;
    for (let round = 0; round < rounds; round++) {
      const cpuBefore = cpuMs(trivial.pid);
      const t: number[] = [];
      for (let i = 0; i < 100; i++) t.push((await timedRequest(`${trivial.url}/api/bench`)).ms);
      const trivialCpu = (cpuMs(trivial.pid) - cpuBefore) / 100;
      const post = median(await postLatencies(`${trivial.url}/api/bench`, 100));
      const row = [
        `trivial ${median(t).toFixed(2)} ms (cpu ${trivialCpu.toFixed(2)})`,
        `trivial POST ${post.toFixed(2)} ms = ${(post / median(t)).toFixed(2)}x`,
      ];
      for (const s of sessions) {
        if (floors) {
          for (const status of [401, 400] as const) {
            const p50 = await refusedCreates(s, 100, status);
            row.push(`${s.server.name} ${status} ${p50.toFixed(2)} ms = ${(p50 / median(t)).toFixed(2)}x`);
          }
        }
        if (multilingual) {
          const one = await languageCreates(s, n, ["en"]);
          const three = await languageCreates(s, n, LANGUAGES);
          row.push(
            `${s.server.name} 1 language ${one.toFixed(2)} ms, 3 languages ${three.toFixed(2)} ms = ${(three / one).toFixed(2)}x (goal ≤ 2.5x)`,
          );
        }
        const r = await creates(s, n, round * 1000);
        row.push(
          `${s.server.name} ${r.p50.toFixed(2)} ms = ${(r.p50 / median(t)).toFixed(2)}x (cpu ${r.cpu.toFixed(2)} ms = ${(r.cpu / trivialCpu).toFixed(2)}x)`,
        );
      }
      rows.push(row.join(" | "));
      console.log(`round ${round + 1}: ${rows.at(-1)}  load ${os.loadavg()[0].toFixed(2)}`);
    }
    const windowEnd = process.hrtime.bigint() / 1000n;
    console.log(`profile window (µs, monotonic): ${windowStart} ${windowEnd}`);
    console.log(
      `load after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" / ")}`,
    );
    const dir = apps[0].cpuProfileDir;
    await Promise.allSettled(running.reverse().map((r) => r.stop()));
    running.length = 0;
    if (dir) {
      await sleep(500);
      console.log(`profile in ${dir}`);
      console.log(summariseProfile(dir));
    }
  } finally {
    await Promise.allSettled(running.reverse().map((r) => r.stop()));
  }
}

void main();
