import fs from "node:fs";
import path from "node:path";
import { dejaVuFont } from "@/lib/ffmpeg/find-binary";
import type { FrameLayout, SceneText } from "./frame-layout";
import { quote } from "./quote";

/**
 * ffmpeg's inputs for the scenes' graph: the background, one frame at `fps`, and in avatar mode the
 * avatar. They do not depend on the scenes, so ffmpeg can open them before the graph is ready.
 */
export function stillInputs(options: {
  layout: FrameLayout;
  background: string;
  avatarFile: string | null;
  fps: number;
}) {
  const { layout, background, avatarFile, fps } = options;
  return [
    "-f",
    "lavfi",
    "-i",
    `color=c=${background}:s=${layout.width}x${layout.height}:r=${fps}:d=${(1 / fps).toFixed(3)}`,
    ...(layout.avatar && avatarFile ? ["-i", avatarFile] : []),
  ];
}

/**
 * Draws every scene once, in the encode's own filter graph: the brand's colour, its name and accent
 * strip, the scene's lines (each centred, on a common baseline grid) and, in avatar mode, the avatar.
 * Each drawn picture is converted to yuv420p once and repeated for its scene's `frames` (the loop filter
 * passes the same picture on, so nothing is drawn or converted per frame), and the scenes are joined at
 * `fps`. The first picture also goes out as `[poster]`, for the JPEG poster. The graph reads the
 * inputs of stillInputs().
 */
export async function planStills(options: {
  dir: string;
  brandName: string;
  layout: FrameLayout;
  text: SceneText;
  textColor: string;
  accentColor: string;
  avatarFile: string | null;
  /** Frames each scene is shown for. */
  frames: number[];
  fps: number;
}): Promise<string> {
  const { dir, brandName, layout, text, textColor, accentColor, avatarFile, frames, fps } = options;
  const regular = quote(dejaVuFont("regular"));
  const bold = quote(dejaVuFont("bold"));
  const count = text.lines.length;
  const file = (name: string) => path.join(dir, name);
  const withAvatar = Boolean(layout.avatar && avatarFile);

  await fs.promises.writeFile(file("brand.txt"), brandName);
  const graph: string[] = [];
  // The frame every scene shares, drawn in RGB as the PNG stills were, split once per scene.
  graph.push(
    `[0:v]format=rgb24,drawbox=x=0:y=ih-${layout.accentHeight}:w=iw:h=${layout.accentHeight}:color=${accentColor}:t=fill,` +
      `drawtext=fontfile=${bold}:textfile=${quote(file("brand.txt"))}:expansion=none` +
      `:fontsize=${layout.brand.fontSize}:fontcolor=${accentColor}:x=${layout.brand.x}:y=${layout.brand.y},` +
      `split=${count}${Array.from({ length: count }, (_, i) => `[base${i}]`).join("")}`,
  );
  if (layout.avatar && withAvatar) {
    graph.push(
      `[1:v]scale=${layout.avatar.width}:${layout.avatar.height},format=rgba,` +
        `split=${count}${Array.from({ length: count }, (_, i) => `[avatar${i}]`).join("")}`,
    );
  }
  const { fontSize, lineHeight } = text;
  for (const [index, lines] of text.lines.entries()) {
    const box = layout.text;
    const top = box.y + Math.round((box.height - lines.length * lineHeight) / 2);
    // The baseline of each line: the font's ascent (about 0.76 em for DejaVu Sans) below its slot's top.
    const baseline = (line: number) => top + line * lineHeight + Math.round(fontSize * 0.95);
    const draws: string[] = [];
    for (const [line, words] of lines.entries()) {
      const textFile = file(`scene-${index}-${line}.txt`);
      await fs.promises.writeFile(textFile, words);
      draws.push(
        `drawtext=fontfile=${regular}:textfile=${quote(textFile)}:expansion=none` +
          `:fontsize=${fontSize}:fontcolor=${textColor}` +
          `:x=${box.x}+(${box.width}-text_w)/2:y=${baseline(line)}-ascent`,
      );
    }
    const drawn = draws.length ? `[base${index}]${draws.join(",")}` : `[base${index}]null`;
    const still = index === 0 ? "format=rgb24,split=2[still0][poster]" : `format=rgb24[still${index}]`;
    if (layout.avatar && withAvatar) {
      graph.push(`${drawn}[text${index}]`);
      graph.push(
        `[text${index}][avatar${index}]overlay=x=${layout.avatar.x}:y=${layout.avatar.y}:format=auto,${still}`,
      );
    } else {
      graph.push(`${drawn},${still}`);
    }
    graph.push(
      `[still${index}]format=yuv420p,loop=loop=${Math.max(1, frames[index]) - 1}:size=1:start=0[held${index}]`,
    );
  }
  graph.push(
    `${Array.from({ length: count }, (_, i) => `[held${i}]`).join("")}concat=n=${count}:v=1:a=0,` +
      `setpts=N/(${fps}*TB)[video]`,
  );
  return graph.join(";\n");
}
