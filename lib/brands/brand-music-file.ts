import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { KIT_UPLOAD_FIELD } from "@/lib/contracts/brand-kit-rules";
import { ApiError } from "@/lib/errors/api-error";
import { findFfmpeg, findFfprobe } from "@/lib/ffmpeg/find-binary";
import { readProcess } from "@/lib/ffmpeg/run-process";

export type MusicFormat = "mp3" | "aac" | "m4a" | "wav";

const invalid = (message: string) =>
  new ApiError("invalid_request", message, { details: [{ path: KIT_UPLOAD_FIELD, message }] });
const NOT_AUDIO =
  "The file is not an MP3, AAC or WAV track, or it is damaged. Export it again as MP3, AAC (.m4a) or WAV and upload it.";

type Probe = { formatName: string; duration: number; audioCodecs: string[] };

/**
 * The demuxer a track's first bytes call for, or null when they are none of the four formats: checked before
 * ffmpeg reads anything, so a playlist (HLS, `#EXTM3U`), a concat list or any other file that makes ffmpeg
 * open URLs never reaches it. MP3 (an ID3 tag or an MPEG audio frame), AAC (an ADTS frame), M4A (an ISO
 * `ftyp` box) and WAV (RIFF … WAVE).
 */
export function musicDemuxer(bytes: Buffer): "mp3" | "aac" | "mov" | "wav" | null {
  if (bytes.length < 12) return null;
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString("latin1");
  if (ascii(0, 3) === "ID3") return "mp3";
  if (ascii(4, 8) === "ftyp") return "mov";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "wav";
  if (bytes[0] === 0xff && (bytes[1] & 0xf6) === 0xf0) return "aac";
  if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0 && (bytes[1] & 0x06) !== 0) return "mp3";
  return null;
}

/**
 * What ffmpeg may do with the upload: read this one local file, as the demuxer its bytes call for. No other
 * protocol (http, tcp, …), so nothing in the file can make the server fetch a URL.
 */
const confined = (demuxer: string, file: string) => [
  "-protocol_whitelist",
  "file",
  "-f",
  demuxer,
  "-i",
  file,
];

async function ffprobe(command: string, demuxer: string, file: string): Promise<Probe> {
  const { code, stdout } = await readProcess(command, [
    "-v",
    "error",
    "-show_entries",
    "format=format_name,duration:stream=codec_type,codec_name",
    "-of",
    "json",
    ...confined(demuxer, file),
  ]);
  if (code !== 0) throw new Error(`ffprobe exited with code ${code}`);
  const parsed = JSON.parse(stdout) as {
    format?: { format_name?: string; duration?: string };
    streams?: { codec_type?: string; codec_name?: string }[];
  };
  return {
    formatName: parsed.format?.format_name ?? "",
    duration: Number(parsed.format?.duration ?? 0),
    audioCodecs: (parsed.streams ?? [])
      .filter((stream) => stream.codec_type === "audio")
      .map((stream) => stream.codec_name ?? ""),
  };
}

/** Without ffprobe (a bundled ffmpeg only): ffmpeg's own description of its input on stderr. */
async function ffmpegProbe(command: string, demuxer: string, file: string): Promise<Probe> {
  const { stderr } = await readProcess(command, ["-hide_banner", ...confined(demuxer, file)]);
  const time = stderr.match(/Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/);
  return {
    formatName: stderr.match(/Input #0, ([^ ]+), from/)?.[1]?.replace(/,$/, "") ?? "",
    duration: time ? Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]) : 0,
    audioCodecs: [...stderr.matchAll(/Stream #0:\d+.*?: Audio: (\w+)/g)].map((match) => match[1]),
  };
}

function formatOf({ formatName, audioCodecs }: Probe): MusicFormat | null {
  const formats = formatName.split(",");
  const codec = audioCodecs[0] ?? "";
  if (audioCodecs.length !== 1) return null;
  if (formats.includes("mp3") && codec === "mp3") return "mp3";
  if (formats.includes("aac") && codec === "aac") return "aac";
  if (formats.includes("mp4") && codec === "aac") return "m4a";
  if (formats.includes("wav") && codec.startsWith("pcm_")) return "wav";
  return null;
}

/**
 * Checks an uploaded music track: its first bytes first (none of the formats: 400 before any probe), then
 * ffprobe, confined to the file in a private temporary folder: exactly one audio stream, MP3, AAC (ADTS or in an M4A) or
 * PCM WAV, with a length. Anything else (another format, a video, a damaged file) is 400.
 */
export async function probeMusic(bytes: Buffer): Promise<{ format: MusicFormat; durationSeconds: number }> {
  const demuxer = musicDemuxer(bytes);
  if (!demuxer) throw invalid(NOT_AUDIO);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "brand-music-"));
  const file = path.join(dir, "upload");
  try {
    await fs.promises.writeFile(file, bytes);
    const probeCommand = await findFfprobe();
    const ffmpeg = probeCommand ? null : await findFfmpeg();
    if (!probeCommand && !ffmpeg) {
      throw new ApiError(
        "service_unavailable",
        "Music cannot be checked on this server (no ffprobe or ffmpeg).",
      );
    }
    const probe = await (probeCommand
      ? ffprobe(probeCommand, demuxer, file)
      : ffmpegProbe(ffmpeg as string, demuxer, file)
    ).catch(() => null);
    const format = probe && formatOf(probe);
    if (!probe || !format) throw invalid(NOT_AUDIO);
    if (!(probe.duration >= 0.5))
      throw invalid("The track is shorter than half a second. Upload a longer one.");
    return { format, durationSeconds: probe.duration };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
