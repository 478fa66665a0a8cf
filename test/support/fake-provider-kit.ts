import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * Shared parts of the fake HeyGen and D-ID servers: a real small MP4 made with ffmpeg (2 s, H.264 +
 * AAC) that they serve as the finished video, a request log, and knobs a test turns.
 */

let sampleVideo: string | undefined;

/** A real 2-second 320×240 H.264/AAC MP4, made once per process. */
export function sampleMp4(): string {
  if (sampleVideo && fs.existsSync(sampleVideo)) return sampleVideo;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-provider-"));
  const file = path.join(dir, "result.mp4");
  execFileSync("ffmpeg", [
    "-nostdin",
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=320x240:rate=25:duration=2",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:duration=2",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    "-movflags",
    "+faststart",
    file,
  ]);
  sampleVideo = file;
  return file;
}

export type FakeBehavior = {
  /** Milliseconds from submit until the job is done. */
  renderMs: number;
  /** The next submitted job ends failed with this reason. */
  failNext: string | null;
  /** The next `count` submits answer 429 with this Retry-After. */
  rateLimit: { count: number; retryAfterSeconds: number };
  /** Every API request answers 503 (an outage). */
  outage: boolean;
  /** Finished jobs send no webhook. */
  dropWebhooks: boolean;
  /** Delay before every answer. */
  latencyMs: number;
};

export const defaultBehavior = (): FakeBehavior => ({
  renderMs: 1500,
  failNext: null,
  rateLimit: { count: 0, retryAfterSeconds: 2 },
  outage: false,
  dropWebhooks: false,
  latencyMs: 0,
});

export type LoggedRequest = { method: string; path: string; at: number; status: number };

export type FakeServer = {
  url: string;
  behavior: FakeBehavior;
  requests: LoggedRequest[];
  /** Submits the fake accepted (a 2xx answer to generate / create talk). */
  submits: () => number;
  /** The provider's id of the last job it accepted. */
  lastJobId: () => string | null;
  webhooksSent: () => number;
  close: () => Promise<void>;
};

export async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export function serveFile(res: http.ServerResponse, file: string, type: string) {
  const stat = fs.statSync(file);
  res.writeHead(200, { "Content-Type": type, "Content-Length": String(stat.size) });
  fs.createReadStream(file).pipe(res);
}

export async function postWebhook(url: string, body: unknown) {
  await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).catch(() => {});
}

/**
 * Starts an HTTP server on 127.0.0.1. `handle` answers the API; the kit adds latency, the outage switch,
 * `POST /__fake/behavior` (merge JSON into the behavior) and `GET /__fake/state`, and logs every request.
 */
export async function startFake(options: {
  port?: number;
  handle: (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => Promise<void> | void;
  behavior: FakeBehavior;
  state: () => unknown;
}): Promise<{ url: string; requests: LoggedRequest[]; close: () => Promise<void> }> {
  const requests: LoggedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const at = Date.now();
    res.on("finish", () =>
      requests.push({ method: req.method ?? "GET", path: url.pathname, at, status: res.statusCode }),
    );
    try {
      if (url.pathname === "/__fake/behavior" && req.method === "POST") {
        Object.assign(options.behavior, JSON.parse((await readBody(req)).toString() || "{}"));
        return sendJson(res, 200, options.behavior);
      }
      if (url.pathname === "/__fake/state") return sendJson(res, 200, options.state());
      if (options.behavior.latencyMs) await new Promise((r) => setTimeout(r, options.behavior.latencyMs));
      if (options.behavior.outage && !url.pathname.startsWith("/files/")) {
        return sendJson(res, 503, {
          error: { code: "service_unavailable", message: "Service temporarily unavailable" },
        });
      }
      await options.handle(req, res, url);
    } catch (error) {
      sendJson(res, 500, { error: { message: (error as Error).message } });
    }
  });
  return { ...(await listen(server, options.port)), requests };
}

/** Listens on 127.0.0.1 (a free port unless given): the fake's URL, and a close that drops open connections. */
export async function listen(server: http.Server, port = 0) {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
