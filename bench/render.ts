import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { findFfmpeg } from "@/lib/ffmpeg/find-binary";
import { startProcessHost } from "@/lib/ffmpeg/process-host";
import { runProcess } from "@/lib/ffmpeg/run-process";
import type { VideoAspectRatio } from "../lib/contracts/video";
import { getMediaStorage } from "../lib/media/storage";
import { encodeSettings, renderThreads } from "../lib/video/local/encode-settings";
import { frameSize } from "../lib/video/local/frame-layout";
import { localVideoProvider } from "../lib/video/local/local-provider";
import { buildAudioTrack, type Pcm } from "../lib/video/local/speech";
import { videoMediaPrefix } from "../lib/video/provider";
import { median } from "./measure";

// The local renderer against a plain ffmpeg encode of the same length, size and output settings (a
// solid colour, and the render's own voice track: the same samples, rebuilt from what the render
// returns, so both encode the same audio), measured side by side in the same run, in interleaved rounds. Run it alone
// with `npx tsx bench/render.ts`; bench/run.ts calls benchRender() for BENCHMARKS.md.

export type RenderBench = {
  /** The full render: four image scenes with motion, captions, logo and music (else text on gradients). */
  full: boolean;
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
  /**
   * Median CPU seconds per round (this process and the programs it ran: ffmpeg, espeak-ng, sharp's
   * threads): on a shared machine steadier than wall time, which other work stretches.
   */
  renderCpuSeconds: number;
  baselineCpuSeconds: number;
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

/** CPU seconds a process and its finished children have used (/proc/<pid>/stat, clock ticks of 10 ms). */
function processCpuSeconds(pid: number | "self") {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // After the command: state is field 3, so utime, stime, cutime, cstime (14–17) are at 11–14 here.
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

/** This process's CPU and the tools': they run under the process host (lib/ffmpeg/process-host.ts). */
export const cpuSeconds = () =>
  processCpuSeconds("self") + processCpuSeconds(startProcessHost().child.pid as number);

async function timed(work: () => Promise<unknown>, cpu: number[]) {
  const started = performance.now();
  const cpuBefore = cpuSeconds();
  await work();
  cpu.push(cpuSeconds() - cpuBefore);
  return (performance.now() - started) / 1000;
}

/**
 * The full render's media, put in the media store as a brand's upload and a post's images would be: four
 * photo-like pictures (soft shapes over gradients, with grain, so the encoder has detail to move), a logo
 * and a music track (a chord with noise).
 */
async function storeFullRenderMedia(ffmpeg: string, dir: string) {
  const storage = getMediaStorage();
  const images: { key: string; overlayText: string | null }[] = [];
  const hues = [
    [180, 120, 60],
    [40, 90, 140],
    [200, 60, 80],
    [60, 140, 90],
  ];
  for (const [index, [r, g, b]] of hues.entries()) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="2000"><defs><radialGradient id="g"><stop offset="0" stop-color="rgb(${r},${g},${b})"/><stop offset="1" stop-color="rgb(${b},${r},${g})"/></radialGradient></defs><rect width="1600" height="2000" fill="url(#g)"/>${Array.from({ length: 24 }, (_, i) => `<circle cx="${(i * 373) % 1600}" cy="${(i * 611) % 2000}" r="${60 + ((i * 47) % 200)}" fill="rgba(${(i * 53) % 255},${(i * 97) % 255},${(i * 31) % 255},0.5)"/>`).join("")}</svg>`;
    const noise = await sharp({
      create: {
        width: 1600,
        height: 2000,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 20 },
      },
    })
      .png()
      .toBuffer();
    const key = `bench/render/image-${index}.jpg`;
    await storage.put(
      key,
      await sharp(Buffer.from(svg))
        .composite([{ input: noise, blend: "soft-light" }])
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
    images.push({ key, overlayText: index === 0 ? "The autumn blend is here" : null });
  }
  const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160"><rect width="400" height="160" rx="24" fill="#3B2F2F"/><circle cx="80" cy="80" r="50" fill="#E0A458"/></svg>`;
  await storage.put("bench/render/logo.png", await sharp(Buffer.from(logo)).png().toBuffer());
  const music = path.join(dir, "music.mp3");
  await runProcess(ffmpeg, [
    "-nostdin",
    "-v",
    "error",
    "-y",
    "-filter_complex",
    "sine=f=220:d=20,volume=0.3[a];sine=f=277:d=20,volume=0.3[b];anoisesrc=d=20:a=0.05[c];[a][b][c]amix=inputs=3[out]",
    "-map",
    "[out]",
    "-b:a",
    "128k",
    music,
  ]);
  await storage.put("bench/render/music.mp3", music);
  return images;
}

export async function benchRender(
  options: { seconds?: number; rounds?: number; aspectRatio?: VideoAspectRatio; full?: boolean } = {},
): Promise<RenderBench> {
  const { seconds = 30, rounds = 3, full = false, aspectRatio = full ? "9:16" : "16:9" } = options;
  const ffmpeg = await findFfmpeg();
  if (!ffmpeg) throw new Error("ffmpeg is not installed.");
  const { width, height } = frameSize(aspectRatio);
  const threads = renderThreads();
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "brand-studio-bench-render-"));
  // A 9:16 frame's phrases are short, so the full render pauses more often, and it ends on a 2.5 s end
  // card: a shorter script gives it about `seconds` of video too (whole sentences: 34.6 s for 30).
  const script = scriptOf(full ? seconds * 0.92 : seconds);
  const renders: number[] = [];
  const baselines: number[] = [];
  const [renderCpu, baselineCpu]: number[][] = [[], []];
  let videoSeconds = 0;
  try {
    const images = full ? await storeFullRenderMedia(ffmpeg, dir) : [];
    for (let round = 0; round < rounds; round++) {
      const jobId = `vjb_benchrender${process.pid}r${round}`;
      let duration = 0;
      let voice: { clip: Pcm | null; seconds: number }[] = [];
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
                ...(full ? { logoKey: "bench/render/logo.png", musicKey: "bench/render/music.mp3" } : {}),
              },
              ...(full ? { visuals: { images, callToAction: "Order today at northwind.example" } } : {}),
            },
            { signal: new AbortController().signal, onProgress: () => {} },
          );
          duration = result.durationSeconds;
          voice = result.scenes.map((scene) => ({ clip: scene.speech, seconds: scene.seconds }));
        }, renderCpu),
      );
      await getMediaStorage().remove(videoMediaPrefix(jobId));
      videoSeconds = duration;
      // The render's voice track, as it laid it out: each phrase in its slot, silence under the end card.
      // (Until 2026-11-26 the baseline encoded digital silence, which AAC codes almost for free: about
      // 0.1 CPU s less for 31 s than the voice the render has to encode.)
      const format = voice.find((slot) => slot.clip)?.clip ?? {
        sampleRate: 22050,
        channels: 1,
        bitsPerSample: 16,
      };
      const spokenSeconds = voice.reduce((sum, slot) => sum + slot.seconds, 0);
      const voiceFile = path.join(dir, "voice.wav");
      await fs.promises.writeFile(
        voiceFile,
        buildAudioTrack(format, [...voice, { clip: null, seconds: Math.max(0, duration - spokenSeconds) }]),
      );
      baselines.push(
        await timed(
          () =>
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
              "-i",
              voiceFile,
              "-map",
              "0:v",
              "-map",
              "1:a",
              ...encodeSettings({ seconds: duration, threads, graphics: !full }),
              path.join(dir, "baseline.mp4"),
            ]),
          baselineCpu,
        ),
      );
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
  const renderSeconds = median(renders);
  const baselineSeconds = median(baselines);
  return {
    full,
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
    renderCpuSeconds: median(renderCpu),
    baselineCpuSeconds: median(baselineCpu),
  };
}

/** The figures as Markdown table rows (`| what | value |`). */
export function renderBenchRows(bench: RenderBench) {
  const what = bench.full
    ? "full render (4 image scenes with motion, captions, logo, music)"
    : "render (text on gradients, captions)";
  return [
    `| ${what}: ${bench.videoSeconds.toFixed(1)} s of ${bench.width}×${bench.height} video, median of ${bench.rounds} | ${bench.renderSeconds.toFixed(2)} s |`,
    `| ${bench.full ? "full " : ""}render speed (video seconds per wall second; goal ≥ ${bench.full ? 5 : 8}×) | ${bench.realTime.toFixed(1)}× |`,
    `| plain ffmpeg encode, same length and settings (solid colour, the render's voice track) | ${bench.baselineSeconds.toFixed(2)} s (${bench.baselineRealTime.toFixed(1)}×) |`,
    `| ${bench.full ? "full " : ""}render vs plain encode${bench.full ? "" : " (goal ≥ 0.9×)"} | ${bench.vsBaseline.toFixed(2)}× |`,
    `| CPU seconds per round, render (ffmpeg, speech, images) / plain encode | ${bench.renderCpuSeconds.toFixed(2)} / ${bench.baselineCpuSeconds.toFixed(2)} (plain ÷ render ${(bench.baselineCpuSeconds / bench.renderCpuSeconds).toFixed(2)}×) |`,
    `| ffmpeg threads | ${bench.threads} |`,
  ];
}

if (require.main === module) {
  const full = process.argv.includes("--full");
  benchRender({ full }).then(
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
