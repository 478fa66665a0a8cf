import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { freePort } from "./test-server";

const ROOT = path.resolve(__dirname, "../..");
const DEPLOY = path.join(ROOT, "deploy/prometheus");

/** `promtool` from Debian's `prometheus` package (.ci/run installs it); a clear failure where it is missing. */
export function promtool(args: string[], input?: string) {
  const result = spawnSync("promtool", args, { input, encoding: "utf8", cwd: ROOT });
  if (result.error) {
    throw new Error(`promtool did not run (${result.error.message}): install Debian's prometheus package.`);
  }
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

type ScrapeConfig = {
  job_name: string;
  metrics_path: string;
  authorization?: { credentials_file?: string; credentials?: string };
  dns_sd_configs?: unknown;
  static_configs?: { targets: string[] }[];
};

export type PrometheusTarget = {
  scrapePool: string;
  health: "up" | "down" | "unknown";
  lastError: string;
  lastScrape: string;
};
export type PrometheusRule = {
  name: string;
  type: string;
  health: string;
  lastError?: string;
  query: string;
};

/**
 * A real Prometheus server on 127.0.0.1, running the shipped configuration (deploy/prometheus/prometheus.yml):
 * its jobs, metrics paths, bearer-token files and alert rules, with two changes for one machine: each job scrapes
 * the given host:port instead of resolving compose's service name, and every second instead of every 15.
 * `extraJobs` adds jobs of the test's own (say, one with a wrong token).
 */
export async function startPrometheus(options: {
  targets: Record<string, string>;
  token: string;
  extraJobs?: ScrapeConfig[];
}) {
  const shipped = parse(fs.readFileSync(path.join(DEPLOY, "prometheus.yml"), "utf8")) as {
    global: Record<string, unknown>;
    rule_files: string[];
    scrape_configs: ScrapeConfig[];
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-prometheus-"));
  const tokenFile = path.join(dir, "metrics-token");
  fs.writeFileSync(tokenFile, options.token);
  const jobs = shipped.scrape_configs.map(({ dns_sd_configs: _, ...job }) => {
    const target = options.targets[job.job_name];
    if (!target) throw new Error(`no target given for the shipped job ${job.job_name}`);
    return {
      ...job,
      authorization: { credentials_file: tokenFile },
      static_configs: [{ targets: [target] }],
    };
  });
  const config = {
    global: { ...shipped.global, scrape_interval: "1s", scrape_timeout: "1s", evaluation_interval: "1s" },
    // The compose profile mounts alerts.yml at /etc/prometheus; here it is read from the repository.
    rule_files: shipped.rule_files.map((file) => path.join(DEPLOY, path.basename(file))),
    scrape_configs: [...jobs, ...(options.extraJobs ?? [])],
  };
  const configFile = path.join(dir, "prometheus.yml");
  fs.writeFileSync(configFile, stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    "prometheus",
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };

  async function get<T>(pathAndQuery: string): Promise<T> {
    const response = await fetch(`${url}${pathAndQuery}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== "success") throw new Error(`Prometheus ${pathAndQuery}: ${body.error}`);
    return body.data;
  }

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited:\n${output}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready in 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    stop,
    logs: () => output,
    targets: async () =>
      (await get<{ activeTargets: PrometheusTarget[] }>("/api/v1/targets?state=active")).activeTargets,
    rules: async () =>
      (await get<{ groups: { rules: PrometheusRule[] }[] }>("/api/v1/rules")).groups.flatMap(
        (group) => group.rules,
      ),
    /** An instant query: each series' labels and value. Throws on a query Prometheus refuses. */
    query: async (expr: string) =>
      (
        await get<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
          `/api/v1/query?query=${encodeURIComponent(expr)}`,
        )
      ).result.map((series) => ({ labels: series.metric, value: Number(series.value[1]) })),
  };
}

export type PrometheusServer = Awaited<ReturnType<typeof startPrometheus>>;
