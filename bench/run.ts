import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getEnv } from "@/lib/config";
import { signInAsDemo } from "../test/support/auth";
import { startTestServer, TEST_DIST_DIR, type TestServer } from "../test/support/test-server";

// Benchmarks: timings as ratios against a baseline (GET /api/health) measured in the same run, on the
// same server, so the numbers compare across machines. Results go to BENCHMARKS.md.

type Stats = { n: number; p50: number; p95: number; mean: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    n: samples.length,
    p50: at(0.5),
    p95: at(0.95),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

async function measure(n: number, run: () => Promise<Response>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const response = await run();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`Benchmark request failed: ${response.status}`);
    samples.push(performance.now() - started);
  }
  return stats(samples);
}

function serverRssMb(server: TestServer) {
  const port = new URL(server.url).port;
  const pid = execFileSync("sh", [
    "-c",
    `ss -ltnpH 'sport = :${port}' | grep -o 'pid=[0-9]*' | head -n1 | cut -d= -f2`,
  ])
    .toString()
    .trim();
  const status = pid ? fs.readFileSync(`/proc/${pid}/status`, "utf8") : "";
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function main() {
  if (!fs.existsSync(path.join(TEST_DIST_DIR, "BUILD_ID"))) {
    execFileSync("npx", ["next", "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_DIST_DIR: TEST_DIST_DIR },
    });
  }
  const server = await startTestServer();
  try {
    const { accessToken } = await signInAsDemo(server.url);
    const auth = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
    const brands = (await (await fetch(`${server.url}/api/brands`, { headers: auth })).json()) as {
      items: { brandId: string }[];
    };
    const brandId = brands.items[0].brandId;
    const rssStart = serverRssMb(server);

    // Warm up every route once so compilation and first-connection costs stay out of the numbers.
    await fetch(`${server.url}/api/health`);
    const health = await measure(200, () => fetch(`${server.url}/api/health`));
    const context = await measure(200, () =>
      fetch(`${server.url}/api/brands/${brandId}/context`, { headers: auth }),
    );
    const brief = (seed: number) =>
      JSON.stringify({
        brandId,
        channel: (["telegram", "instagram", "linkedin"] as const)[seed % 3],
        topic: "Our new single-origin Ethiopian roast arrives this week",
        goal: "traffic",
        seed,
      });
    let seed = 0;
    const generate = await measure(50, () =>
      fetch(`${server.url}/api/content/create`, { method: "POST", headers: auth, body: brief(seed++) }),
    );

    const script =
      "Meet our new Ethiopian roast. Bright notes of blueberry and jasmine. Roasted in small batches every morning. " +
      "Come taste it at the café this week.";
    const videoStarted = performance.now();
    const created = (await (
      await fetch(`${server.url}/api/video/jobs`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ brandId, script, mode: "regular" }),
      })
    ).json()) as { jobId: string };
    let job: { status: string; durationSeconds: number | null } = { status: "queued", durationSeconds: null };
    while (!["succeeded", "failed", "canceled"].includes(job.status)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = await (await fetch(`${server.url}/api/video/jobs/${created.jobId}`, { headers: auth })).json();
    }
    const renderSeconds = (performance.now() - videoStarted) / 1000;
    if (job.status !== "succeeded") throw new Error(`The benchmark video job ended ${job.status}.`);
    const rssEnd = serverRssMb(server);

    const ratio = (value: number) => (value / health.p50).toFixed(1);
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const rows = [
      ["GET /api/health (baseline)", health, "1.0"],
      ["GET /api/brands/{id}/context (bearer + database)", context, ratio(context.p50)],
      ["POST /api/content/create (local model)", generate, ratio(generate.p50)],
    ] as const;
    const report = `# Benchmarks

Run with \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.
Machine: ${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${
      getEnv().DATABASE_URL ? "PostgreSQL" : "PGlite"
    }. Production build, one server, sequential requests over loopback.

Timings are compared as a ratio to the health check's median in the same run; absolute milliseconds depend on
the machine.

| operation | n | p50 ms | p95 ms | p50 / baseline |
|---|---|---|---|---|
${rows.map(([name, s, r]) => `| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${r} |`).join("\n")}

| video (local renderer) | value |
|---|---|
| script | ${script.split(/\s+/).length} words, ${job.durationSeconds} s of video |
| wall time from POST to succeeded | ${renderSeconds.toFixed(1)} s |
| render time / video duration | ${(renderSeconds / (job.durationSeconds || 1)).toFixed(2)} |

| memory | MiB |
|---|---|
| server RSS after start-up and sign-in | ${rssStart} |
| server RSS after the run | ${rssEnd} |
`;
    fs.writeFileSync("BENCHMARKS.md", report);
    console.log(report);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
