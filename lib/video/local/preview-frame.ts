import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { VideoAspectRatio } from "@/lib/contracts/video-rules";
import { readableTextOn } from "@/lib/ffmpeg/contrast";
import { runProcess } from "@/lib/ffmpeg/run-process";
import { drawBrandCard } from "@/lib/media/brand-card-image";
import { brandFontFamily, brandFontFile } from "@/lib/media/brand-fonts";
import { videoGraph } from "./branded-graph";
import { fitLogo, logoSizes, overlayLayout } from "./branded-render";
import { captionLayout, captionPhrases } from "./caption-layout";
import { FPS } from "./encode-settings";
import { frameSize } from "./frame-layout";
import { safeArea } from "./safe-areas";
import { PAN_MARGIN } from "./scene-images";
import { wrapLines } from "./scenes";

export type PreviewKit = {
  primaryColor: string;
  secondaryColor: string;
  font: string;
  /** The logo's bytes (the stored PNG), or null. */
  logo: Buffer | null;
};

const SAMPLE_CAPTION = "Your colours, your font, your logo.";
/** The scene stands in for a post's picture: neutral, so the caption and overlay boxes show as they would. */
const SAMPLE_PICTURE = { from: "#94A3B8", to: "#334155" };
const SAMPLE_OVERLAY = "New this week";
// Six frames: five of the scene, one of the end card; the poster is the third (a third of the bar drawn).
const SCENE_FRAMES = 5;
const POSTER_FRAME = 2;

/**
 * One frame of a branded video, drawn by the renderer's own filter graph (videoGraph) with ffmpeg: a
 * scene (a neutral stand-in for the post's picture, panning), the media plan's overlay text in the secondary colour, a
 * caption in the primary colour at the safe area's bottom, the logo in its corner and the progress bar.
 * Every size and position comes from the same rules a render uses (caption layout, safe areas, logo sizes).
 */
export async function renderPreviewFrame(
  kit: PreviewKit,
  aspectRatio: VideoAspectRatio,
  ffmpeg: string,
): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const { width, height } = frameSize(aspectRatio);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "brand-preview-"));
  const file = (name: string) => path.join(dir, name);
  try {
    const layout = captionLayout(aspectRatio, width, height, kit.font);
    const safe = safeArea(aspectRatio, width, height);
    const { logoSize } = logoSizes(width, height);
    const { overlayFont, overlayPadding, overlayChars } = overlayLayout(layout);
    const even = (value: number) => Math.round(value / 2) * 2;
    const [scene] = await Promise.all([
      drawBrandCard({
        width: even(width * PAN_MARGIN),
        height: even(height * PAN_MARGIN),
        primaryColor: SAMPLE_PICTURE.to,
        secondaryColor: SAMPLE_PICTURE.from,
        font: kit.font,
        text: "",
      }),
    ]);
    await fs.promises.writeFile(file("scene.jpg"), scene);
    await sharp({ create: { width, height, channels: 3, background: kit.primaryColor } })
      .jpeg()
      .toFile(file("end.jpg"));
    const logo = kit.logo
      ? await fitLogo(kit.logo, file("logo.png"), logoSize * 3, logoSize).catch(() => null)
      : null;

    const inputs = [
      "-i",
      file("scene.jpg"),
      "-i",
      file("end.jpg"),
      ...(logo ? ["-i", file("logo.png")] : []),
    ];
    const [phrase] = captionPhrases(SAMPLE_CAPTION, layout.lineChars);
    const sceneEnd = SCENE_FRAMES / FPS;
    const graph = await videoGraph(
      {
        width,
        height,
        fps: FPS,
        fontFile: brandFontFile(kit.font, "bold"),
        fontFamily: brandFontFamily(kit.font),
        language: "en",
        scenes: [
          {
            input: 0,
            frames: SCENE_FRAMES,
            pan: "right",
            overlayLines: wrapLines(SAMPLE_OVERLAY, overlayChars),
          },
        ],
        endCard: { input: 1, frames: 1, start: sceneEnd, lines: [], top: 0 },
        cues: [{ text: phrase, lines: wrapLines(phrase, layout.lineChars), start: 0, end: sceneEnd }],
        captions: layout,
        captionBox: kit.primaryColor,
        captionText: readableTextOn(kit.primaryColor),
        accentBox: kit.secondaryColor,
        accentText: readableTextOn(kit.secondaryColor),
        overlay: {
          top: safe.y + (logo ? logo.height + Math.round(logoSize * 0.4) : 0),
          fontSize: overlayFont,
          lineHeight: Math.round(overlayFont * 1.2) + 2 * overlayPadding,
          padding: overlayPadding,
          center: { x: safe.x, width: safe.width },
        },
        logo: logo ? { input: 2, x: safe.x, y: safe.y } : null,
        endLogo: null,
        total: (SCENE_FRAMES + 1) / FPS,
        posterFrame: POSTER_FRAME,
      },
      dir,
    );
    await fs.promises.writeFile(file("graph.txt"), graph);
    await runProcess(ffmpeg, [
      "-nostdin",
      "-hide_banner",
      "-v",
      "error",
      "-y",
      ...inputs,
      "-filter_complex_script",
      file("graph.txt"),
      "-map",
      "[poster]",
      "-frames:v",
      "1",
      "-q:v",
      "4",
      "-update",
      "1",
      file("frame.jpg"),
      "-map",
      "[video]",
      "-f",
      "null",
      "-",
    ]);
    return { jpeg: await fs.promises.readFile(file("frame.jpg")), width, height };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
