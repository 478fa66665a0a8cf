import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";

// A server on a machine without Debian's espeak-ng (its PATH holds ffmpeg only): the built app loads
// eSpeak NG as WebAssembly from node_modules and the video still speaks, with no warning.
const run = promisify(execFile);
let server: TestServer;
let bin: string;

beforeAll(async () => {
  bin = fs.mkdtempSync(path.join(os.tmpdir(), "bs-no-espeak-"));
  for (const tool of ["ffmpeg", "ffprobe"]) {
    fs.symlinkSync((await run("which", [tool])).stdout.trim(), path.join(bin, tool));
  }
  server = await startTestServer({ env: { PATH: bin, FFMPEG_PATH: undefined, OPENAI_API_KEY: undefined } });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(bin, { recursive: true, force: true });
});

describe("a server without espeak-ng", () => {
  it("makes a video that speaks, with eSpeak NG compiled to WebAssembly", async () => {
    const { token } = await newUser(server.url);
    const client = videoClient(server.url, token);
    const brandId = await client.newBrand({ primaryColor: "#1E3A8A", secondaryColor: "#F59E0B" });
    const created = await client.createJob({ brandId, script: SCRIPT, mode: "regular" });
    expect(created.status).toBe(202);
    const { job } = await client.pollJob(
      created.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    // The job view names the voice that spoke (stored on the job when it succeeded).
    expect(job).toMatchObject({ status: "succeeded", warnings: [], voice: "espeak-wasm:en" });
    const file = path.join(bin, "video.mp4");
    fs.writeFileSync(
      file,
      Buffer.from(await (await fetch(new URL(job.videoUrl ?? "", server.url))).arrayBuffer()),
    );
    const { stderr } = await run("ffmpeg", [
      "-hide_banner",
      "-i",
      file,
      "-vn",
      "-af",
      "volumedetect",
      "-f",
      "null",
      "-",
    ]);
    const mean = Number(stderr.match(/mean_volume: (-?[\d.]+) dB/)?.[1] ?? -120);
    expect(mean).toBeGreaterThan(-35);
  });
});
