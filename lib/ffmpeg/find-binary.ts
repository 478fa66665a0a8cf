import fs from "node:fs";
import path from "node:path";
import { getEnv } from "@/lib/config";

function isExecutable(file: string) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first `name` on PATH, like `which`. */
export function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** The npm-packaged static ffmpeg; its postinstall chmod is skipped when install scripts are off. */
async function bundledFfmpeg(): Promise<string | null> {
  try {
    const { default: installer } = await import("@ffmpeg-installer/ffmpeg");
    if (!fs.existsSync(installer.path)) return null;
    if (!isExecutable(installer.path)) fs.chmodSync(installer.path, 0o755);
    return installer.path;
  } catch {
    return null;
  }
}

/**
 * Which ffmpeg the local renderer runs: FFMPEG_PATH when set (exactly that one), else the system ffmpeg
 * on PATH (it has the fuller build), else the one from @ffmpeg-installer/ffmpeg.
 */
export async function findFfmpeg(): Promise<string | null> {
  const configured = getEnv().FFMPEG_PATH;
  if (configured) return isExecutable(configured) ? configured : null;
  return findOnPath("ffmpeg") ?? (await bundledFfmpeg());
}

/** espeak-ng gives the video a voice when it is installed; without it the audio track is silent. */
export function findEspeak(): EspeakProgram | null {
  const command = findOnPath("espeak-ng");
  return command ? { command, prefix: [] } : null;
}

const SYSTEM_FONTS = "/usr/share/fonts/truetype/dejavu";
const PACKAGED_FONTS = path.join(
  /*turbopackIgnore: true*/ process.cwd(),
  "node_modules/dejavu-fonts-ttf/ttf",
);

/** DejaVu Sans (regular or bold) for drawtext: the system copy, else the one from the dejavu-fonts-ttf package. */
export function dejaVuFont(weight: "regular" | "bold"): string {
  const file = weight === "bold" ? "DejaVuSans-Bold.ttf" : "DejaVuSans.ttf";
  const system = path.join(SYSTEM_FONTS, file);
  return fs.existsSync(system) ? system : path.join(PACKAGED_FONTS, file);
}

/** An espeak-ng program: the command and what goes before espeak-ng's own arguments. */
export type EspeakProgram = { command: string; prefix: string[] };

/** eSpeak NG as WebAssembly (the espeak-ng npm package), run by this Node as a program of its own. */
export function findEspeakWasm(): EspeakProgram | null {
  const script = path.join(process.cwd(), "scripts", "espeak-wasm.mjs");
  const wasm = path.join(process.cwd(), "node_modules", "espeak-ng", "dist", "espeak-ng.wasm");
  return fs.existsSync(script) && fs.existsSync(wasm)
    ? { command: process.execPath, prefix: [script] }
    : null;
}

/** ffprobe: beside FFMPEG_PATH when that is set, else on PATH; null when there is none. */
export async function findFfprobe(): Promise<string | null> {
  const configured = getEnv().FFMPEG_PATH;
  if (configured) {
    const sibling = path.join(path.dirname(configured), "ffprobe");
    if (isExecutable(sibling)) return sibling;
  }
  return findOnPath("ffprobe");
}
