import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { findFfmpeg } from "@/lib/ffmpeg/find-binary";
import { runProcess } from "@/lib/ffmpeg/run-process";
import { getMediaStorage } from "@/lib/media/storage";
import { countedCall } from "@/lib/telemetry/counted-call";
import { inSpan, setSpanAttributes, urlForSpan } from "@/lib/telemetry/tracing";
import { fileDurationSeconds } from "../local/file-duration";
import { type RenderResult, videoMediaPrefix } from "../provider";
import { ProviderError, providerCallFailure } from "./provider-http";
import type { ProviderPoll } from "./types";

const DOWNLOAD_TIMEOUT_MS = 10 * 60 * 1000;

/** One download from the provider's storage, spanned and counted with the provider's other calls. */
function download(provider: string, url: string, file: string, signal: AbortSignal) {
  return countedCall(
    provider,
    "render download",
    { "url.full": urlForSpan(url) },
    providerCallFailure,
    async (span) => {
      const response = await fetch(url, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS)]),
      });
      setSpanAttributes(span, { "http.response.status_code": response.status });
      if (!response.ok || !response.body) {
        throw new ProviderError(provider, `Downloading the finished video answered ${response.status}.`, {
          status: response.status,
          transient: true,
        });
      }
      await pipeline(Readable.fromWeb(response.body as WebReadableStream), fs.createWriteStream(file));
    },
  );
}

/** The poster frame: cut by ffmpeg at 0.5 s (else the first frame), or the provider's thumbnail without ffmpeg. */
async function makePoster(
  provider: string,
  result: ProviderPoll,
  videoFile: string,
  posterFile: string,
  signal: AbortSignal,
) {
  const ffmpeg = await findFfmpeg();
  if (ffmpeg) {
    const cut = (input: string[]) =>
      runProcess(
        ffmpeg,
        [
          "-nostdin",
          "-hide_banner",
          "-v",
          "error",
          "-y",
          ...input,
          "-frames:v",
          "1",
          "-q:v",
          "3",
          posterFile,
        ],
        { signal },
      );
    await cut(["-ss", "0.5", "-i", videoFile]).catch(() => cut(["-i", videoFile]));
  } else if (result.thumbnailUrl) {
    await download(provider, result.thumbnailUrl, posterFile, signal);
  } else {
    throw new ProviderError(
      provider,
      "No poster frame: ffmpeg is missing and the provider sent no thumbnail.",
      {
        transient: false,
      },
    );
  }
}

/**
 * Copies a provider's finished video into our media storage (the provider's link expires), with a poster
 * frame cut by ffmpeg, or the provider's thumbnail when there is no ffmpeg. The file is streamed to a temp
 * folder first and then `put` into storage, so the job's videoUrl is always ours.
 */
export async function storeProviderResult(options: {
  provider: string;
  jobId: string;
  result: ProviderPoll;
  signal: AbortSignal;
}): Promise<RenderResult> {
  const { provider, jobId, result, signal } = options;
  if (!result.resultUrl)
    throw new ProviderError(provider, "The provider finished without a video URL.", { transient: true });
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `brand-studio-${jobId}-dl-`));
  try {
    const videoFile = path.join(dir, "video.mp4");
    await download(provider, result.resultUrl, videoFile, signal);
    const posterFile = path.join(dir, "poster.jpg");
    await inSpan("render poster", {}, () => makePoster(provider, result, videoFile, posterFile, signal));
    const storage = getMediaStorage();
    const videoKey = `${videoMediaPrefix(jobId)}/video.mp4`;
    const posterKey = `${videoMediaPrefix(jobId)}/poster.jpg`;
    await inSpan("render upload", { attributes: { "brand_studio.files": 2 } }, async () => {
      await storage.put(videoKey, videoFile);
      await storage.put(posterKey, posterFile);
    });
    // The downloaded file's own length; the provider's figure only when the file cannot be read.
    const seconds = await fileDurationSeconds(videoFile);
    return { videoKey, posterKey, durationSeconds: seconds ?? result.durationSeconds ?? 0 };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
