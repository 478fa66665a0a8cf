import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { VideoAspectRatio } from "../lib/contracts/video";
import { getMediaStorage } from "../lib/media/storage";
import { encodeSettings, renderThreads } from "../lib/video/local/encode-settings";
import { findFfmpeg } from "../lib/video/local/find-binary";
import { frameSize } from "../lib/video/local/frame-layout";
import { localVideoProvider } from "../lib/video/local/local-provider";
import { runProcess } from "../lib/video/local/run-process";
import { videoMediaPrefix } from "../lib/video/provider";

// The local renderer against a plain ffmpeg encode of the same length, size and output settings (a
// solid colour and silence), measured side by side in the same run, in interleaved rounds. Run it alone
// with `npx tsx bench/render.ts`; bench/run.ts calls benchRender() for BENCHMARKS.md.

export type RenderBench = {
  aspectRatio: VideoAspectRatio;
  width: number;
  height: number;
  threads: number;
  rounds: number;
  /** Seconds of video each round renders. */
  videoSeconds: number;
  /** Median wall seconds per round. */
  renderSeconds: number;
  baselineSeconds: number;
  /** Seconds of video per wall second (goal: ≥ 8 for 30 s of 720p). */
  realTime: number;
  baselineRealTime: number;
  /** The renderer's speed as a share of the plain encode's (goal: ≥ 0.9). */
  vsBaseline: number;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** About `seconds` of speech at the default pace (175 words a minute, with a pause after each scene). */
function scriptOf(seconds: number) {
  const sentences = [
    "Fresh beans arrive every Monday from the same three farms we have worked with for years.",
    "We roast them in small batches, twelve kilos at a time, so nothing sits on a shelf.",
    "Come in before nine and the first cup of the new blend is on us.",
    "It tastes of cherry, cocoa and a little spice.",
    "Bring a friend, bring your laptop, or just bring yourself.",
  ];
  const words = Math.round((seconds * 150) / 60);
  const picked: string[] = [];
  for (let i = 0; picked.join(" ").split(" ").length < words; i++) {
    picked.push(sentences[i % sentences.length]);
  }
  return picked.join(" ");
}

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

export async function benchRender(
  options: { seconds?: number; rounds?: number; aspectRatio?: VideoAspectRatio } = {},
): Promise<RenderBench> {
  const { seconds = 30, rounds = 3, aspectRatio = "16:9" } = options;
  const ffmpeg = await findFfmpeg();
  if (!ffmpeg) throw new Error("ffmpeg is not installed.");
  const { width, height } = frameSize(aspectRatio);
  const threads = renderThreads();
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "brand-studio-bench-render-"));
  const script = scriptOf(seconds);
  const renders: number[] = [];
  const baselines: number[] = [];
  let videoSeconds = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const jobId = `vjb_benchrender${process.pid}r${round}`;
      let duration = 0;
      renders.push(
        await timed(async () => {
          const result = await localVideoProvider.render(
            {
              jobId,
              attempt: 1,
              script,
              brief: null,
              mode: "regular",
              aspectRatio,
              brand: {
                name: "Northwind Coffee",
                language: "en",
                primaryColor: "#3B2F2F",
                secondaryColor: "#E0A458",
                avatarFramesKey: null,
              },
            },
            { signal: new AbortController().signal, onProgress: () => {} },
          );
          duration = result.durationSeconds;
        }),
      );
      await getMediaStorage().remove(videoMediaPrefix(jobId));
      videoSeconds = duration;
      baselines.push(
        await timed(() =>
          runProcess(ffmpeg, [
            "-nostdin",
            "-hide_banner",
            "-v",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            `color=c=0x3B2F2F:s=${width}x${height}:r=25:d=${duration.toFixed(3)}`,
            "-f",
            "lavfi",
            "-i",
            "anullsrc=r=44100:cl=mono",
            ...encodeSettings({ seconds: duration, threads }),
            path.join(dir, "baseline.mp4"),
          ]),
        ),
      );
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
  const renderSeconds = median(renders);
  const baselineSeconds = median(baselines);
  return {
    aspectRatio,
    width,
    height,
    threads,
    rounds,
    videoSeconds,
    renderSeconds,
    baselineSeconds,
    realTime: videoSeconds / renderSeconds,
    baselineRealTime: videoSeconds / baselineSeconds,
    vsBaseline: baselineSeconds / renderSeconds,
  };
}

/** The figures as Markdown table rows (`| what | value |`). */
export function renderBenchRows(bench: RenderBench) {
  return [
    `| render: ${bench.videoSeconds.toFixed(1)} s of ${bench.width}×${bench.height} video, median of ${bench.rounds} | ${bench.renderSeconds.toFixed(2)} s |`,
    `| render speed (video seconds per wall second; goal ≥ 8×) | ${bench.realTime.toFixed(1)}× |`,
    `| plain ffmpeg encode, same length and settings | ${bench.baselineSeconds.toFixed(2)} s (${bench.baselineRealTime.toFixed(1)}×) |`,
    `| render vs plain encode (goal ≥ 0.9×) | ${bench.vsBaseline.toFixed(2)}× |`,
    `| ffmpeg threads | ${bench.threads} |`,
  ];
}

if (require.main === module) {
  benchRender().then(
    (bench) => {
      console.log(["| render | value |", "|---|---|", ...renderBenchRows(bench)].join("\n"));
      console.log(
        `load average: ${os
          .loadavg()
          .map((load) => load.toFixed(2))
          .join(" ")}`,
      );
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
