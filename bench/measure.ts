import fs from "node:fs";
import http from "node:http";
import autocannon from "autocannon";

/** Median of a list (the bench takes the median over interleaved rounds). */
export function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values: number[], q: number) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc. */
export function cpuMs(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 (utime, stime) counted from 1, i.e. 11 and 12 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

export function rssMb(pid: number) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Math.round(Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024);
  } catch {
    return Number.NaN;
  }
}

/** RSS of a server's process host (scripts/process-host.mjs, the child that starts its tools), or NaN. */
export function processHostRssMb(serverPid: number) {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, "utf8");
      if (Number(status.match(/PPid:\s+(\d+)/)?.[1]) !== serverPid) continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("process-host.mjs"))
        return rssMb(Number(entry));
    } catch {}
  }
  return Number.NaN;
}

export type LoadTarget = {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** The status every answer must have (a 304 target must not silently measure 200s). */
  status: number;
  /** The server process whose CPU time is charged to this target. */
  pid: number;
};

export type LoadResult = { rps: number; p50: number; cpuPerReq: number };

/** One autocannon run: 8 connections for `seconds`, counting only answers with the expected status. */
export async function load(target: LoadTarget, seconds: number): Promise<LoadResult> {
  const cpuBefore = cpuMs(target.pid);
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    connections: 8,
    duration: seconds,
  });
  const cpuAfter = cpuMs(target.pid);
  const statuses = (result.statusCodeStats ?? {}) as Record<string, { count?: number }>;
  const good = statuses[String(target.status)]?.count ?? 0;
  const total = Object.values(statuses).reduce((sum, s) => sum + (s.count ?? 0), 0);
  if (good === 0 || good < total * 0.99 || result.errors > 0) {
    throw new Error(
      `${target.name}: expected ${target.status} answers, got ${JSON.stringify(statuses)} (${result.errors} errors)`,
    );
  }
  return {
    rps: good / seconds,
    p50: result.latency.p50,
    cpuPerReq: (cpuAfter - cpuBefore) / good,
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request over a kept-alive connection; resolves with the status and the time to the last byte. */
export function timedRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
