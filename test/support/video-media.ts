import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);

export type Probe = {
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  format: { duration: string; format_name: string };
};

/** ffprobe's view of a media file (or URL). */
export async function ffprobe(file: string): Promise<Probe> {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-print_format",
    "json",
    "-show_streams",
    "-show_format",
    file,
  ]);
  return JSON.parse(stdout) as Probe;
}

/** The top-level MP4 boxes in file order; with +faststart, `moov` comes before `mdat`. */
export function topLevelBoxes(data: Buffer): string[] {
  const boxes: string[] = [];
  let offset = 0;
  while (offset + 8 <= data.length) {
    let size = data.readUInt32BE(offset);
    const type = data.toString("ascii", offset + 4, offset + 8);
    if (size === 1) size = Number(data.readBigUInt64BE(offset + 8));
    if (size < 8) break;
    boxes.push(type);
    offset += size;
  }
  return boxes;
}

/** Pids of running `program` processes (matched by the end of argv[0]) with an argument that includes `marker`. */
export function pidsOf(program: string, marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv[0]?.endsWith(program) && argv.some((arg) => arg.includes(marker))) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** Pids of running ffmpeg processes whose command line mentions `marker` (the renderer puts the job id in its paths). */
export const ffmpegPidsFor = (marker: string) => pidsOf("ffmpeg", marker);

export function isAlive(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // A zombie has exited; only its parent has not collected it yet.
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  { timeoutMs = 60_000, intervalMs = 250, what = "the condition" } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A script long enough that its render runs for several seconds (about 40 s of video). */
export const LONG_SCRIPT = Array.from(
  { length: 8 },
  (_, i) =>
    `Scene ${i + 1}: our beans are roasted every single morning in small batches, and the whole street smells of it.`,
).join(" ");
