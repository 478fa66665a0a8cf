import fs from "node:fs";
import path from "node:path";
import { dejaVuFont } from "./find-binary";
import type { FrameLayout, SceneText } from "./frame-layout";

/** Quotes a filter option value: inside '…' everything is literal except the quote itself. */
export const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

export type StillsPlan = {
  /** ffmpeg arguments after the global options: inputs, the filter script, and one output per still. */
  args: string[];
  /** The PNG of each scene, in order. */
  stills: string[];
  poster: string;
};

/**
 * Draws every scene once, as a PNG, in one ffmpeg run: the brand's colour, its name and accent strip,
 * the scene's lines (each centred, on a common baseline grid) and, in avatar mode, the avatar. The
 * video is then only these pictures held for their durations, so nothing is drawn per frame. The first
 * still also becomes the JPEG poster.
 */
export async function planStills(options: {
  dir: string;
  brandName: string;
  layout: FrameLayout;
  text: SceneText;
  background: string;
  textColor: string;
  accentColor: string;
  avatarFile: string | null;
}): Promise<StillsPlan> {
  const { dir, brandName, layout, text, background, textColor, accentColor, avatarFile } = options;
  const regular = quote(dejaVuFont("regular"));
  const bold = quote(dejaVuFont("bold"));
  const count = text.lines.length;
  const file = (name: string) => path.join(dir, name);

  await fs.promises.writeFile(file("brand.txt"), brandName);
  const graph: string[] = [];
  // The frame every scene shares, split once per scene (plus one for the poster).
  graph.push(
    `[0:v]drawbox=x=0:y=ih-${layout.accentHeight}:w=iw:h=${layout.accentHeight}:color=${accentColor}:t=fill,` +
      `drawtext=fontfile=${bold}:textfile=${quote(file("brand.txt"))}:expansion=none` +
      `:fontsize=${layout.brand.fontSize}:fontcolor=${accentColor}:x=${layout.brand.x}:y=${layout.brand.y},` +
      `split=${count}${Array.from({ length: count }, (_, i) => `[base${i}]`).join("")}`,
  );
  if (layout.avatar && avatarFile) {
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
    if (layout.avatar && avatarFile) {
      graph.push(`${drawn}[text${index}]`);
      graph.push(
        `[text${index}][avatar${index}]overlay=x=${layout.avatar.x}:y=${layout.avatar.y}:format=auto,format=rgb24` +
          (index === 0 ? ",split=2[still0][poster]" : `[still${index}]`),
      );
    } else {
      graph.push(`${drawn},format=rgb24${index === 0 ? ",split=2[still0][poster]" : `[still${index}]`}`);
    }
  }
  const graphFile = file("stills.txt");
  await fs.promises.writeFile(graphFile, graph.join(";\n"));

  const stills = text.lines.map((_, index) => file(`scene-${index}.png`));
  const poster = file("poster.jpg");
  const args = [
    "-f",
    "lavfi",
    "-i",
    `color=c=${background}:s=${layout.width}x${layout.height}:r=1:d=1`,
    ...(layout.avatar && avatarFile ? ["-i", avatarFile] : []),
    "-filter_complex_script",
    graphFile,
    ...stills.flatMap((still, index) => ["-map", `[still${index}]`, "-frames:v", "1", "-update", "1", still]),
    "-map",
    "[poster]",
    "-frames:v",
    "1",
    "-q:v",
    "3",
    "-update",
    "1",
    poster,
  ];
  return { args, stills, poster };
}
