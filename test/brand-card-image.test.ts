import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { blendOver, drawBrandCard } from "@/lib/media/brand-card-image";

const run = promisify(execFile);

// A card's text is blended into the picture by our own loop, not by libvips' composite (a tenth of its CPU):
// libvips is the reference it must match, and tesseract must read the card it draws.

/** Pseudo-random bytes, the same every run. */
function bytes(length: number, seed: number) {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >> 16;
  }
  return out;
}

describe("brand cards", () => {
  it("blends straight-alpha RGBA over RGB as libvips' composite does, clipped to the picture", async () => {
    const [width, height] = [64, 48];
    const base = bytes(width * height * 3, 1);
    const data = bytes(40 * 30 * 4, 2);
    // Whole transparent and whole opaque pixels too, not only partial ones.
    for (let i = 3; i < data.length; i += 4 * 7) data[i] = 0;
    for (let i = 7; i < data.length; i += 4 * 11) data[i] = 255;
    // Placed so that it runs past the right and bottom edges.
    const layer = { data, width: 40, height: 30, left: 40, top: 30 };
    const visible = { width: width - layer.left, height: height - layer.top };
    const crop = Buffer.alloc(visible.width * visible.height * 4);
    for (let y = 0; y < visible.height; y++) {
      data.copy(crop, y * visible.width * 4, y * layer.width * 4, (y * layer.width + visible.width) * 4);
    }
    const expected = await sharp(base, { raw: { width, height, channels: 3 } })
      .composite([{ input: crop, raw: { ...visible, channels: 4 }, left: layer.left, top: layer.top }])
      .removeAlpha()
      .raw()
      .toBuffer();

    const picture = Buffer.from(base);
    blendOver(picture, width, height, layer);

    let worst = 0;
    for (let i = 0; i < picture.length; i++) worst = Math.max(worst, Math.abs(picture[i] - expected[i]));
    expect(worst).toBeLessThanOrEqual(1);
    // Outside the layer nothing changed.
    const above = layer.top * width * 3;
    expect(picture.subarray(0, above).equals(base.subarray(0, above))).toBe(true);
    expect(picture.equals(base)).toBe(false);
  });

  it("draws a JPEG of the asked size whose headline and caption read back", async () => {
    const jpeg = await drawBrandCard({
      width: 1080,
      height: 1350,
      primaryColor: "#1F3A5F",
      secondaryColor: "#F2A541",
      font: "sans",
      text: "Fresh roast Friday",
      caption: "Single origin beans from Ethiopia",
    });
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: "jpeg", width: 1080, height: 1350 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "card-"));
    try {
      // White letters on the dark primary, inverted to black on light, the way tesseract reads best.
      const file = path.join(dir, "card.png");
      await sharp(jpeg).greyscale().negate().toFile(file);
      const { stdout } = await run("tesseract", [file, "-", "--psm", "6"]);
      const words = stdout.toLowerCase();
      for (const word of ["fresh", "roast", "friday", "single", "origin", "ethiopia"])
        expect(words).toContain(word);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
