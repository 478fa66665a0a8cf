import fs from "node:fs";
import type { EspeakProgram } from "@/lib/ffmpeg/find-binary";
import { runProcess } from "@/lib/ffmpeg/run-process";
import { quote } from "./quote";

export type Pcm = { sampleRate: number; channels: number; bitsPerSample: number; data: Buffer };

/** Reads a PCM WAV file's format and samples (what espeak-ng writes). */
export function readWav(buffer: Buffer): Pcm {
  if (buffer.toString("ascii", 0, 4) !== "RIFF" || buffer.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("Not a WAV file.");
  }
  let offset = 12;
  let format: Omit<Pcm, "data"> | undefined;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString("ascii", offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      format = {
        channels: buffer.readUInt16LE(body + 2),
        sampleRate: buffer.readUInt32LE(body + 4),
        bitsPerSample: buffer.readUInt16LE(body + 14),
      };
    } else if (id === "data" && format) {
      // A streamed WAV may carry a placeholder size; the samples then run to the end of the file.
      return { ...format, data: buffer.subarray(body, Math.min(buffer.length, body + size)) };
    }
    offset = body + size + (size % 2);
  }
  throw new Error("The WAV file has no samples.");
}

export function pcmSeconds(pcm: Pcm) {
  return pcm.data.length / (pcm.sampleRate * pcm.channels * (pcm.bitsPerSample / 8));
}

/** Lays clips end to end, each padded with silence to fill its slot, as one WAV file. */
export function buildAudioTrack(format: Omit<Pcm, "data">, slots: { clip: Pcm | null; seconds: number }[]) {
  const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
  const blockAlign = format.channels * (format.bitsPerSample / 8);
  const parts = slots.map(({ clip, seconds }) => {
    const slotBytes = Math.round((seconds * bytesPerSecond) / blockAlign) * blockAlign;
    const part = Buffer.alloc(slotBytes);
    clip?.data.copy(part, 0, 0, Math.min(slotBytes, clip.data.length));
    return part;
  });
  const data = Buffer.concat(parts);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(format.channels, 22);
  header.writeUInt32LE(format.sampleRate, 24);
  header.writeUInt32LE(bytesPerSecond, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(format.bitsPerSample, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Speaks `textFile` with espeak-ng's `voice` (espeakVoice picks one that exists) into `wavFile`. */
export async function speak(options: {
  espeak: EspeakProgram;
  textFile: string;
  wavFile: string;
  voice: string;
  wordsPerMinute: number;
  signal?: AbortSignal;
}): Promise<Pcm> {
  const { espeak, textFile, wavFile, voice, wordsPerMinute, signal } = options;
  await runProcess(
    espeak.command,
    [...espeak.prefix, "-v", voice, "-s", String(wordsPerMinute), "-w", wavFile, "-f", textFile],
    { signal },
  );
  return readWav(await fs.promises.readFile(wavFile));
}

export const SHELL = "/bin/sh";

/**
 * Speaks many phrases with espeak-ng from one process: a /bin/sh that runs them in `lanes` sequential
 * groups side by side. Each spawn from the app (a large Node process) costs several milliseconds of
 * its only JS thread, and the render cannot start encoding before every phrase is spoken; the shell
 * forks cheaply. Rejects when any phrase fails; the caller tries the next engine.
 */
export async function speakAll(options: {
  espeak: EspeakProgram;
  items: { text: string; wavFile: string }[];
  voice: string;
  wordsPerMinute: number;
  lanes: number;
  signal?: AbortSignal;
  /** Called as each phrase is spoken (the shell prints its index). */
  onSpoken?: (index: number) => void;
}): Promise<Pcm[]> {
  const { espeak, items, voice, wordsPerMinute, lanes, signal, onSpoken } = options;
  if (items.length === 0) return [];
  const program = [espeak.command, ...espeak.prefix].map(quote).join(" ");
  const say = (item: { wavFile: string }) =>
    `${program} -v ${quote(voice)} -s ${Math.round(wordsPerMinute)} -w ${quote(item.wavFile)} -f ${quote(`${item.wavFile}.txt`)}`;
  // The shell writes each phrase's text file itself (printf is built in): written from here, they would
  // wait behind whatever else holds libuv's threads (a render's sharp images), and the encode waits on them.
  const sayOne = (item: { text: string; wavFile: string }) =>
    `printf '%s' ${quote(item.text)} > ${quote(`${item.wavFile}.txt`)} && ${say(item)}`;
  const laneCount = Math.max(1, Math.min(lanes, items.length));
  const groups = Array.from({ length: laneCount }, (_, lane) =>
    items.flatMap((item, index) => (index % laneCount === lane ? [{ item, index }] : [])),
  );
  // Every group in the background, then each one's exit status: the shell fails when any phrase did.
  const script = [
    ...groups.map(
      (group, lane) =>
        `( ${group.map(({ item, index }) => `${sayOne(item)} && echo ${index}`).join(" && ")} ) & p${lane}=$!`,
    ),
    "s=0",
    ...groups.map((_, lane) => `wait $p${lane} || s=1`),
    "exit $s",
  ].join("\n");
  await runProcess(SHELL, ["-c", script], {
    signal,
    onStdoutLine: (line) => {
      if (onSpoken && /^\d+$/.test(line)) onSpoken(Number(line));
    },
  });
  return Promise.all(items.map(async (item) => readWav(await fs.promises.readFile(item.wavFile))));
}
