import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { startFakeOpenAI } from "../test/support/fake-openai";
import { startTestServer } from "../test/support/test-server";

const run = promisify(execFile);

/** Signs a new user up through the pages; returns a bearer token for setting up data over the API. */
async function signUp(page: Page, origin = "") {
  const email = `e2e-kit-${Date.now()}@example.test`;
  await page.goto(`${origin}/signup`);
  await page.getByLabel("Name").fill("Kit Marketer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("e2e-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  const session = await (await page.request.get(`${origin}/api/auth/session`)).json();
  return { authorization: `Bearer ${session.accessToken}` };
}

/** A two-second tone as a 16-bit mono WAV. */
function toneWav() {
  const rate = 22_050;
  const samples = rate * 2;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 330 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A photo-like picture in no brand colour: a soft blob and stripes over a flat ground, as a JPEG. */
function photo(ground: string, blob: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1500"><rect width="1200" height="1500" fill="${ground}"/><circle cx="600" cy="750" r="420" fill="${blob}"/>${[0, 1, 2, 3].map((i) => `<rect x="${120 + i * 260}" y="1200" width="120" height="200" fill="${blob}"/>`).join("")}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** The words tesseract reads in a picture (white-on-colour and dark-on-light text both). */
async function readWords(png: Buffer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-ocr-"));
  const words = new Set<string>();
  try {
    for (const [index, variant] of [
      sharp(png).grayscale().threshold(200).negate(),
      sharp(png).grayscale().threshold(100),
    ].entries()) {
      const file = path.join(dir, `ocr-${index}.png`);
      await variant.png().toFile(file);
      const { stdout } = await run("tesseract", [file, "-", "--psm", "6"]);
      for (const word of stdout.toLowerCase().split(/[^a-z]+/)) if (word) words.add(word);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return words;
}

const LOGO_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80">
    <rect width="240" height="80" rx="16" fill="#FFFFFF"/><circle cx="40" cy="40" r="24" fill="#0E7C66"/>
    <rect x="76" y="28" width="140" height="24" rx="6" fill="#0E7C66"/></svg>`,
);

test("set the brand kit, watch the preview follow it, give a post images and make a video of it", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const headers = await signUp(page);
  const created = await page.request.post("/api/brands", {
    headers,
    data: { name: "Harbour Bakery", tone: "warm and neighbourly", voice: "short, friendly sentences" },
  });
  expect(created.status()).toBe(201);
  const { brandId } = await created.json();

  await page.goto(`/brands/${brandId}`);
  await expect(page.getByRole("heading", { name: "Brand kit" })).toBeVisible();
  const preview = page.getByTestId("brand-preview-frame");
  await expect(preview).toBeVisible({ timeout: 30_000 });
  const firstFrame = await preview.getAttribute("src");

  // Colours and font: the preview renders them before they are saved.
  await page.getByRole("textbox", { name: "Primary colour", exact: true }).fill("#0E7C66");
  await page.getByRole("textbox", { name: "Secondary colour", exact: true }).fill("#F4B942");
  await page.getByLabel("Font").selectOption("serif");
  await page.getByLabel("Narrator").selectOption("nova");
  await expect(preview).not.toHaveAttribute("src", firstFrame as string, { timeout: 30_000 });
  await expect(page.getByText("Rendering…")).toHaveCount(0, { timeout: 30_000 });
  const coloured = (await preview.getAttribute("src")) as string;
  // The caption box is drawn in the new primary colour: some of the frame is #0E7C66.
  const frameBytes = Buffer.from(coloured.split(",")[1], "base64");
  const { data } = await sharp(frameBytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let green = 0;
  for (let i = 0; i < data.length; i += 3)
    if (
      Math.abs(data[i] - 0x0e) < 25 &&
      Math.abs(data[i + 1] - 0x7c) < 25 &&
      Math.abs(data[i + 2] - 0x66) < 25
    )
      green++;
  expect(green).toBeGreaterThan(5000);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  const saved = await (await page.request.get(`/api/brands/${brandId}`, { headers })).json();
  expect(saved).toMatchObject({
    primaryColor: "#0E7C66",
    secondaryColor: "#F4B942",
    font: "serif",
    ttsVoice: "nova",
  });

  // The logo (an SVG, rasterised by the server) shows in the kit and in the next preview frame.
  await page
    .getByLabel("Logo file")
    .setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: LOGO_SVG });
  await expect(page.getByTestId("brand-logo")).toBeVisible();
  await expect(preview).not.toHaveAttribute("src", coloured, { timeout: 30_000 });
  await expect(page.getByText("Rendering…")).toHaveCount(0, { timeout: 30_000 });
  // A wrong file gets a clear message, and the logo stays.
  await page
    .getByLabel("Music file")
    .setInputFiles({ name: "bed.wav", mimeType: "audio/wav", buffer: Buffer.from("not audio") });
  await expect(page.getByText(/not an MP3, AAC or WAV track/)).toBeVisible();
  await page
    .getByLabel("Music file")
    .setInputFiles({ name: "bed.wav", mimeType: "audio/wav", buffer: toneWav() });
  await expect(page.getByTestId("brand-music")).toBeVisible();
  await page.screenshot({ path: "screenshots/brand-kit.png", fullPage: true });
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "screenshots/brand-kit-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // A post with two image items: the studio makes their images (drawn in the kit, no image model here).
  const post = await (
    await page.request.post("/api/content/create", {
      headers,
      data: {
        brandId,
        channel: "instagram",
        topic: "fresh sourdough every morning at the harbour",
        goal: "awareness",
      },
    })
  ).json();
  const items = [1, 2].map((n) => ({
    type: "image",
    description: `Loaf ${n} on the counter at sunrise`,
    altText: `Sourdough loaf ${n}`,
    aspectRatio: "4:5",
    overlayText: n === 1 ? "Fresh at 7" : undefined,
  }));
  const patched = await page.request.patch(`/api/posts/${post.postId}`, {
    headers,
    data: { mediaPlan: { format: "carousel", items } },
  });
  expect(patched.status()).toBe(200);
  await page.goto(`/studio/${post.postId}`);
  await page.getByRole("button", { name: "Generate images" }).click();
  await expect(page.getByTestId("media-image-0")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("media-image-1")).toBeVisible({ timeout: 60_000 });
  const previewImage = page.locator('[data-channel="instagram"]').getByTestId("preview-image");
  await expect(previewImage).toBeVisible();
  // Visible is not loaded: under load the picture can still be on its way, so wait for its width.
  await expect.poll(() => previewImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(864);
  await page.getByRole("button", { name: "Next image" }).click();
  await expect(previewImage).toHaveAttribute("alt", "Sourdough loaf 2");
  await page.screenshot({ path: "screenshots/studio-images.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("tab", { name: /Preview/ }).click();
  await page.screenshot({ path: "screenshots/studio-images-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The marketer's own photos replace both drawn cards (uploads, cover-cropped to the items' 4:5).
  await page.reload();
  for (const [index, [ground, blob]] of [
    ["#7A1F5C", "#D98CB3"],
    ["#2D5F8B", "#9CC3E6"],
  ].entries()) {
    const before = await page.getByTestId(`media-image-${index}`).getAttribute("src");
    await page.getByLabel(`Image file for media item ${index + 1}`).setInputFiles({
      name: `photo-${index}.jpg`,
      mimeType: "image/jpeg",
      buffer: await photo(ground, blob),
    });
    await expect(page.getByTestId(`media-image-${index}`)).not.toHaveAttribute("src", before as string, {
      timeout: 30_000,
    });
  }

  // A 9:16 video of the post: its two photos as scenes, the caption, the logo in the corner.
  await page.goto(`/videos/new?postId=${post.postId}`);
  await page.getByRole("radio", { name: /Vertical 9:16/ }).check();
  await page.getByRole("button", { name: "Make the video" }).click();
  await expect(page).toHaveURL(/\/videos\/vjb_[\w-]+$/);
  await expect(page.getByTestId("video-status")).toHaveText("Ready", { timeout: 150_000 });
  const jobId = page.url().split("/").pop() as string;
  const job = await (await page.request.get(`/api/video/jobs/${jobId}`, { headers })).json();
  expect(job).toMatchObject({ status: "succeeded", aspectRatio: "9:16", warnings: [] });

  // The frame the page shows (the player's poster, taken while the first phrase is spoken).
  const player = page.getByTestId("video-player");
  await expect(player).toBeVisible();
  const posterUrl = (await player.getAttribute("poster")) as string;
  expect(posterUrl).toBeTruthy();
  const poster = Buffer.from(await (await page.request.get(posterUrl)).body());
  expect(await sharp(poster).metadata()).toMatchObject({ width: 720, height: 1280 });
  // The caption on it is the first phrase of the captions sidecar the page links.
  const vtt = await (await page.request.get(job.captionsUrl)).text();
  const firstCue = vtt.split("\n\n").find((block) => block.includes("-->")) as string;
  const expected = firstCue
    .split("\n")
    .slice(1)
    .join(" ")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length > 2);
  expect(expected.length).toBeGreaterThan(0);
  // Reels' safe area of a 720×1280 frame: 44 px in from the left, 154 px down, captions above y 1024.
  const captionArea = await sharp(poster)
    .extract({ left: 44, top: 560, width: 590, height: 1024 - 560 })
    .resize({ width: 1180 })
    .png()
    .toBuffer();
  const read = await readWords(captionArea);
  const found = expected.filter((word) => read.has(word));
  expect(found.length, `caption read as "${[...read].join(" ")}"`).toBeGreaterThanOrEqual(
    Math.ceil(expected.length * 0.75),
  );
  // The logo sits in the safe area's top-left corner: the SVG, drawn at the renderer's size (72 px high).
  const reference = await sharp(LOGO_SVG).resize(216, 72, { fit: "fill" }).removeAlpha().raw().toBuffer();
  const corner = await sharp(poster)
    .extract({ left: 44, top: 154, width: 216, height: 72 })
    .removeAlpha()
    .raw()
    .toBuffer();
  let difference = 0;
  for (let i = 0; i < corner.length; i++) difference += Math.abs(corner[i] - reference[i]);
  expect(difference / corner.length).toBeLessThan(20);
  await page.screenshot({ path: "screenshots/brand-kit-video.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "screenshots/brand-kit-video-390.png", fullPage: true });
});

test("media-plan images from an image model (a fake of OpenAI's /v1/images/generations) show in the Instagram preview", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const fake = await startFakeOpenAI();
  // Its own server: this one has an image model (the fake), where the suite's server draws cards locally.
  const server = await startTestServer({
    env: { OPENAI_API_KEY: "sk-e2e-images", OPENAI_BASE_URL: fake.url, IMAGE_MODEL: "gpt-image-1" },
  });
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    const headers = await signUp(page, server.url);
    const { brandId } = await (
      await page.request.post(`${server.url}/api/brands`, {
        headers,
        data: { name: "Harbour Bakery", tone: "warm", voice: "short sentences", primaryColor: "#0E7C66" },
      })
    ).json();
    const post = await (
      await page.request.post(`${server.url}/api/content/create`, {
        headers,
        data: { brandId, channel: "instagram", topic: "fresh sourdough every morning", goal: "awareness" },
      })
    ).json();
    const items = [1, 2].map((n) => ({
      type: "image",
      description: `Loaf ${n} on the counter at sunrise`,
      altText: `Model loaf ${n}`,
      aspectRatio: "1:1",
    }));
    const patched = await page.request.patch(`${server.url}/api/posts/${post.postId}`, {
      headers,
      data: { mediaPlan: { format: "carousel", items } },
    });
    expect(patched.status()).toBe(200);
    fake.requests.length = 0;
    await page.goto(`${server.url}/studio/${post.postId}`);
    await page.getByRole("button", { name: "Generate images" }).click();
    await expect(page.getByTestId("media-image-0")).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("media-image-1")).toBeVisible({ timeout: 60_000 });
    // Each image came from the model, asked with the item's description and the brand's colour.
    const asked = fake.imageRequests();
    expect(asked).toHaveLength(2);
    expect(String(asked[0].body?.prompt)).toContain("#0E7C66");
    expect(asked.map((request) => String(request.body?.prompt).split("\n")[0]).sort()).toEqual([
      "Loaf 1 on the counter at sunrise",
      "Loaf 2 on the counter at sunrise",
    ]);
    // The Instagram preview shows the model's picture (the fake draws #12AB34), square at 1080 px.
    const previewImage = page.locator('[data-channel="instagram"]').getByTestId("preview-image");
    await expect(previewImage).toBeVisible();
    await expect(previewImage).toHaveAttribute("alt", "Model loaf 1");
    // Visible is not loaded: under load the picture can still be on its way, so wait for its width.
    await expect
      .poll(() => previewImage.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(1080);
    const shown = Buffer.from(
      await (
        await page.request.get(await previewImage.evaluate((image: HTMLImageElement) => image.currentSrc))
      ).body(),
    );
    const { data } = await sharp(shown)
      .resize(8, 8)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(Math.abs(data[0] - 0x12) + Math.abs(data[1] - 0xab) + Math.abs(data[2] - 0x34)).toBeLessThan(30);
    await page.getByRole("button", { name: "Next image" }).click();
    await expect(previewImage).toHaveAttribute("alt", "Model loaf 2");
  } finally {
    await server.stop();
    await fake.close();
  }
});

test("a new draft's images are in the preview at once: the brand's cards, then the image model's pictures", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const shots = "/tmp/shots-images";
  fs.mkdirSync(shots, { recursive: true });
  const fake = await startFakeOpenAI();
  // The model writes one 4:5 image item; the image model holds its answer until released.
  fake.state.image = { kind: "hold", color: "#12AB34" };
  const server = await startTestServer({
    env: { OPENAI_API_KEY: "sk-e2e-arrive", OPENAI_BASE_URL: fake.url, IMAGE_MODEL: "gpt-image-1" },
  });
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    const headers = await signUp(page, server.url);
    const created = await page.request.post(`${server.url}/api/brands`, {
      headers,
      data: { name: "Harbour Bakery", tone: "warm", voice: "short sentences", primaryColor: "#0E7C66" },
    });
    expect(created.status()).toBe(201);

    // The owner chooses model images in the brand's settings.
    const { brandId } = await created.json();
    await page.goto(`${server.url}/brands/${brandId}`);
    await page.getByLabel("Post images").selectOption("model");
    await page.getByLabel("Post images").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/brand-post-images-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel("Post images").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/brand-post-images-390.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: /^Save/ }).click();
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`${server.url}/api/brands/${brandId}`, { headers })).json())
            .imageSource,
      )
      .toBe("model");

    await page.goto(`${server.url}/studio`);
    await page.getByText("Instagram", { exact: true }).click();
    await page.getByLabel("Topic").fill("fresh sourdough every morning at the harbour");
    await page.getByRole("button", { name: "Generate draft" }).click();
    await expect(page).toHaveURL(/\/studio\/pst_/);

    // Right after generating: the card is in the editor and the preview, and the item says the model is on it.
    const previewImage = page.locator('[data-channel="instagram"]').getByTestId("preview-image");
    await expect(page.getByTestId("media-image-0")).toBeVisible();
    await expect(previewImage).toBeVisible();
    await expect.poll(() => previewImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(864);
    await expect(page.getByTestId("media-image-state-0")).toHaveText(/Card for now/);
    const pixelOf = async () => {
      const src = await previewImage.evaluate((image: HTMLImageElement) => image.currentSrc);
      const bytes = Buffer.from(await (await page.request.get(src)).body());
      const { data } = await sharp(bytes)
        .resize(8, 8)
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [data[0], data[1], data[2]];
    };
    const [r, g, b] = await pixelOf();
    expect(Math.abs(r - 0x0e) + Math.abs(g - 0x7c) + Math.abs(b - 0x66)).toBeLessThan(40);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.screenshot({ path: `${shots}/arriving-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/arriving-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The model answers: the studio, polling, shows its picture without a reload.
    await expect.poll(() => fake.heldImages()).toBeGreaterThan(0);
    fake.releaseImages();
    await expect(page.getByTestId("media-image-state-0")).toHaveAttribute("data-state", "ready", {
      timeout: 60_000,
    });
    await expect(page.getByTestId("media-image-state-0")).toHaveText("Made by the image model.");
    await expect
      .poll(async () => {
        const [red, green, blue] = await pixelOf();
        return Math.abs(red - 0x12) + Math.abs(green - 0xab) + Math.abs(blue - 0x34) < 30;
      })
      .toBe(true);
    await page.screenshot({ path: `${shots}/arrived-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/arrived-390.png`, fullPage: true });
  } finally {
    await server.stop();
    await fake.close();
  }
});
