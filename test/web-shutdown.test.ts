import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findJemalloc } from "../scripts/allocator.mjs";
import { newUser } from "./support/auth";
import { startTestServer, type TestServer } from "./support/test-server";

/** Sends a request whose body arrives in two halves, `between` running after the first. */
function slowPost(url: string, token: string, body: string, between: () => Promise<void>) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      },
    });
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on("error", reject);
    const half = Math.floor(body.length / 2);
    request.write(body.slice(0, half));
    // Connected, and the server has had a moment to take the request in (its headers and half its body).
    request.once("socket", (socket) =>
      socket.once("connect", () => {
        setTimeout(() => between().then(() => request.end(body.slice(half)), reject), 300);
      }),
    );
  });
}

describe("a web process stopped with SIGTERM (next start, inline worker)", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    // Started with no allocator settings of its own: scripts/start.mjs sets them.
    server = await startTestServer({
      env: { MALLOC_ARENA_MAX: undefined, LD_PRELOAD: undefined, MALLOC_CONF: undefined },
    });
    ({ token } = await newUser(server.url));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("runs on jemalloc where it is installed, in the process it was started as (npm start re-executes itself once)", () => {
    // The pid spawned is the server's: a child process would hold the settings, not this one.
    const environ = fs.readFileSync(`/proc/${server.child.pid}/environ`, "utf8").split("\0");
    const maps = fs.readFileSync(`/proc/${server.child.pid}/maps`, "utf8");
    expect(environ).toContain("MALLOC_ARENA_MAX=2");
    const jemalloc = findJemalloc();
    if (jemalloc) {
      // .ci/run installs it (Debian's libjemalloc2), so CI takes this branch.
      expect(environ).toContain(`LD_PRELOAD=${jemalloc}`);
      expect(environ).toContain("MALLOC_CONF=background_thread:true");
      expect(maps).toContain(fs.realpathSync(jemalloc));
    } else {
      expect(environ.filter((entry) => entry.startsWith("LD_PRELOAD="))).toEqual([]);
      expect(maps).not.toContain("libjemalloc");
    }
  });

  it("keeps an idle connection open past Node's 5 s default, so a client reusing it is not reset", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean; keepAlive: string }>((resolve, reject) => {
        const request = http.get(`${server.url}/api/health`, { agent }, (response) => {
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              reused: request.reusedSocket,
              keepAlive: String(response.headers["keep-alive"]),
            }),
          );
        });
        request.on("error", reject);
      });
    try {
      const first = await get();
      expect(first).toMatchObject({ status: 200, reused: false, keepAlive: "timeout=65" });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      // Same socket, six seconds idle: Node's default would have closed it after five.
      expect(await get()).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("finishes the request in flight, takes no new ones, stops its inline worker, and exits", async () => {
    const child = server.child;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const body = JSON.stringify({ name: "Shutdown Brand", tone: "calm", voice: "plain words" });
    const inFlight = slowPost(`${server.url}/api/brands`, token, body, async () => {
      child.kill("SIGTERM");
      // The listener closes at once: a new connection is refused while the old request is still open.
      for (let i = 0; i < 50; i++) {
        // A new connection each time (no pooled keep-alive socket).
        const refused = await new Promise<boolean>((resolve) => {
          const probe = http.get(`${server.url}/api/health`, { agent: false }, (response) => {
            response.resume();
            resolve(false);
          });
          probe.on("error", () => resolve(true));
        });
        if (refused) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error("The server still took new connections after SIGTERM.");
    });
    const answer = await inFlight;
    expect(answer.status, answer.text).toBe(201);
    expect(JSON.parse(answer.text)).toMatchObject({ name: "Shutdown Brand" });
    expect(await exited).toBe(143);
    expect(server.logs()).toMatch(/"event":"inline_worker_stopped"/);
  });
});
