import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileDurationSeconds, mp4DurationSeconds } from "@/lib/video/local/file-duration";
import { ffprobe } from "./support/video-media";

const run = promisify(execFile);

/** A clip from ffmpeg's test sources: `seconds` of 25 fps video and a tone, with the given output options. */
async function clip(file: string, seconds: number, ...output: string[]) {
  await run("ffmpeg", [
    ...["-v", "error", "-y"],
    ...["-f", "lavfi", "-i", `testsrc=s=160x90:r=25:d=${seconds}`],
    ...["-f", "lavfi", "-i", `sine=f=440:d=${seconds}`],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"],
    ...output,
    file,
  ]);
  return file;
}

/** ffprobe's own `format=duration` for a file. */
const probed = async (file: string) => Number((await ffprobe(file)).format.duration);

describe("a video file's length", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-duration-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is read from an MP4's movie header, as ffprobe reads it, with the header first or last", async () => {
    const first = await clip(path.join(dir, "faststart.mp4"), 2.4, "-movflags", "+faststart");
    const last = await clip(path.join(dir, "plain.mp4"), 1.7);
    for (const file of [first, last]) {
      const fromHeader = await mp4DurationSeconds(file);
      expect(fromHeader).not.toBeNull();
      expect(fromHeader).toBeCloseTo(await probed(file), 5);
      expect(await fileDurationSeconds(file)).toBe(fromHeader);
    }
  });

  it("reads a version 1 movie header (64-bit times)", async () => {
    const box = (type: string, body: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(8 + body.length, 0);
      head.write(type, 4, "latin1");
      return Buffer.concat([head, body]);
    };
    const mvhd = Buffer.alloc(108);
    mvhd[0] = 1; // version 1; then creation and modification times (8 bytes each)
    mvhd.writeUInt32BE(90_000, 20); // timescale
    mvhd.writeBigUInt64BE(90_000n * 7n + 45_000n, 24); // duration: 7.5 s
    const file = path.join(dir, "v1.mp4");
    fs.writeFileSync(
      file,
      Buffer.concat([box("ftyp", Buffer.from("isom\0\0\0\0")), box("moov", box("mvhd", mvhd))]),
    );
    expect(await mp4DurationSeconds(file)).toBe(7.5);
  });

  it("leaves to ffprobe what has no usable movie header: a fragmented MP4, a WAV, a cut file", async () => {
    const fragmented = await clip(
      path.join(dir, "fragmented.mp4"),
      1.5,
      "-movflags",
      "frag_keyframe+empty_moov",
    );
    expect(await mp4DurationSeconds(fragmented)).toBeNull();
    expect(await fileDurationSeconds(fragmented)).toBeCloseTo(await probed(fragmented), 5);

    const wav = path.join(dir, "tone.wav");
    await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=1.25", wav]);
    expect(await mp4DurationSeconds(wav)).toBeNull();
    expect(await fileDurationSeconds(wav)).toBeCloseTo(1.25, 2);

    // The movie header cut off mid-box: its size points past the end of the file.
    const whole = fs.readFileSync(path.join(dir, "faststart.mp4"));
    const cut = path.join(dir, "cut.mp4");
    fs.writeFileSync(cut, whole.subarray(0, 200));
    expect(await mp4DurationSeconds(cut)).toBeNull();

    const garbage = path.join(dir, "garbage.mp4");
    fs.writeFileSync(garbage, Buffer.from("not a video at all, just some text"));
    expect(await mp4DurationSeconds(garbage)).toBeNull();
    expect(await fileDurationSeconds(garbage)).toBeNull();
    expect(await fileDurationSeconds(path.join(dir, "missing.mp4"))).toBeNull();
  });
});
