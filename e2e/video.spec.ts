import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signUpMarketer } from "./support/publishing-pages";

const signUp = (page: Page) => signUpMarketer(page, "video", "Video Marketer");

test("make a video from a post, watch it render, play it and put it in the post", async ({ page }) => {
  test.setTimeout(180_000);
  const headers = await signUp(page);

  await page.goto("/videos");
  await expect(page.getByText("No videos yet")).toBeVisible();
  await page.screenshot({ path: "screenshots/videos-empty.png", fullPage: true });

  const brand = await page.request.post("/api/brands", {
    headers,
    data: {
      name: "Northwind Coffee",
      tone: "warm, upbeat and confident",
      voice: "short sentences, concrete sensory detail",
      primaryColor: "#3B2F2F",
      secondaryColor: "#E0A458",
    },
  });
  expect(brand.status()).toBe(201);
  const { brandId } = await brand.json();
  const created = await page.request.post("/api/content/create", {
    headers,
    data: {
      brandId,
      channel: "instagram",
      topic: "our autumn blend is back this week",
      goal: "awareness",
      // An image host that is down: the video is made without it, and says so.
      assets: [{ type: "image", url: "http://127.0.0.1:9/autumn.jpg" }],
    },
  });
  expect(created.status()).toBe(201);
  const post = await created.json();

  await page.goto(`/videos/new?postId=${post.postId}`);
  await expect(page.getByTestId("video-source-post")).toContainText(post.caption.slice(0, 30));
  await expect(page.getByRole("combobox")).toHaveValue(brandId);
  await expect(page.getByRole("radio", { name: /Avatar/ })).toBeDisabled();
  // An Instagram post makes a vertical reel unless another shape is picked.
  await expect(page.getByRole("radio", { name: /Vertical 9:16/ })).toBeChecked();
  await expect(page.getByText("Default for an Instagram post: Vertical 9:16.")).toBeVisible();
  await page.getByLabel("Brief (optional)").fill("short and snappy");
  await expect(page.getByRole("checkbox", { name: /Captions in the picture/ })).toBeChecked();
  await page.screenshot({ path: "screenshots/videos-new.png", fullPage: true });
  await page.getByRole("button", { name: "Make the video" }).click();
  await expect(page).toHaveURL(/\/videos\/vjb_[\w-]+$/);
  const jobId = page.url().split("/").pop() as string;

  // Watch the progress bar until the job is done: it never goes back, and ends at 100.
  const progressBar = page.getByRole("progressbar", { name: "Render progress" });
  const seen: number[] = [];
  await expect(async () => {
    const status = await page.getByTestId("video-status").getAttribute("data-status");
    seen.push(
      status === "succeeded"
        ? 100
        : Number(await progressBar.getAttribute("aria-valuenow", { timeout: 1000 })),
    );
    expect(status).toBe("succeeded");
  }).toPass({ timeout: 120_000, intervals: [200] });
  expect(seen[0]).toBeLessThan(100);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  await expect(page.getByTestId("video-status")).toHaveText("Ready");

  // The player loads the MP4, plays it, and seeks (Range requests).
  const player = page.getByTestId("video-player");
  await expect(player).toBeVisible();
  const playback = await player.evaluate(async (video: HTMLVideoElement) => {
    video.muted = true;
    if (video.readyState < 1)
      await new Promise((resolve) => video.addEventListener("loadedmetadata", resolve, { once: true }));
    await video.play();
    // Playback moves on. On a loaded machine the first frames can take seconds to decode, so wait for the
    // clock to advance (up to 15 s) instead of a fixed 700 ms; a player that never plays still fails below.
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        video.removeEventListener("timeupdate", onTime);
        resolve();
      };
      const onTime = () => {
        if (video.currentTime > 0) finish();
      };
      const timer = setTimeout(finish, 15_000);
      video.addEventListener("timeupdate", onTime);
    });
    const playedTo = video.currentTime;
    video.pause();
    const seeked = new Promise((resolve) => video.addEventListener("seeked", resolve, { once: true }));
    video.currentTime = video.duration / 2;
    await seeked;
    return {
      duration: video.duration,
      playedTo,
      readyState: video.readyState,
      seekedTo: video.currentTime,
      width: video.videoWidth,
      height: video.videoHeight,
    };
  });
  expect(playback.duration).toBeGreaterThan(1);
  expect(playback.playedTo).toBeGreaterThan(0);
  expect(playback.readyState).toBeGreaterThanOrEqual(1);
  expect(playback.seekedTo).toBeCloseTo(playback.duration / 2, 0);
  expect([playback.width, playback.height]).toEqual([720, 1280]);
  // The captions come as a track too (burned into the picture already, so not shown by default).
  const track = await player.evaluate(async (video: HTMLVideoElement) => {
    const element = video.querySelector("track") as HTMLTrackElement;
    element.track.mode = "hidden";
    if (element.readyState !== 2)
      await new Promise((resolve) => element.addEventListener("load", resolve, { once: true }));
    return {
      kind: element.kind,
      cues: element.track.cues?.length ?? 0,
      first: (element.track.cues?.[0] as VTTCue)?.text,
    };
  });
  expect(track.kind).toBe("captions");
  expect(track.cues).toBeGreaterThan(1);
  expect(post.caption.replace(/\s+/g, " ")).toContain(track.first.replace(/\s+/g, " "));
  await expect(page.getByRole("link", { name: "Download captions (.vtt)" })).toBeVisible();
  await expect(page.getByTestId("video-warnings")).toContainText(
    "Skipped the image http://127.0.0.1:9/autumn.jpg",
  );
  await page.screenshot({ path: "screenshots/videos-done.png", fullPage: true });
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical"),
  ).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "screenshots/videos-done-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  const job = await (await page.request.get(`/api/video/jobs/${jobId}`, { headers })).json();
  // The page names the voice that spoke, as the job view does (`<engine>:<voice>`, English here).
  expect(job.voice).toMatch(/^(espeak-ng|espeak-wasm|openai):/);
  await expect(page.getByTestId("video-voice")).toHaveText(` · voice ${job.voice}`);
  await page.getByRole("button", { name: "Use in post" }).click();
  await expect(page).toHaveURL(new RegExp(`/studio/${post.postId}$`));
  const updated = await (await page.request.get(`/api/posts/${post.postId}`, { headers })).json();
  expect(job.progress).toBe(100);
  expect(job.captions).toBe(true);
  // The post keeps the video itself: its link is signed afresh on each read, for the same file.
  expect(new URL(updated.videoUrl, page.url()).pathname).toBe(new URL(job.videoUrl, page.url()).pathname);
  // The editor plays it at most a screenful high, in the video's own shape.
  const inPost = page.getByTestId("post-video");
  await expect.poll(() => inPost.evaluate((video: HTMLVideoElement) => video.videoWidth)).toBeGreaterThan(0);
  const box = await inPost.boundingBox();
  expect(box?.height).toBeLessThanOrEqual(449);
  const shape = await inPost.evaluate((video: HTMLVideoElement) => video.videoWidth / video.videoHeight);
  expect(Math.abs((box?.width ?? 0) / (box?.height ?? 1) - shape)).toBeLessThan(0.05);
  // With the job's poster, and its captions as a track Chromium loads and parses (burned in, so not shown).
  const poster = await inPost.getAttribute("poster");
  const posterResponse = await page.request.get(poster ?? "");
  expect(posterResponse.status()).toBe(200);
  expect(posterResponse.headers()["content-type"]).toBe("image/jpeg");
  const cues = await inPost.evaluate(async (video: HTMLVideoElement) => {
    const element = video.querySelector("track");
    if (element?.kind !== "captions" || element.default) return -1;
    element.track.mode = "hidden";
    for (let i = 0; i < 100 && element.readyState !== 2; i++) await new Promise((r) => setTimeout(r, 50));
    return element.track.cues?.length ?? 0;
  });
  expect(cues).toBeGreaterThan(0);
  await page.screenshot({ path: "screenshots/studio-post-video.png", fullPage: true });

  await page.goto("/videos");
  await expect(page.getByTestId("video-job-row")).toHaveCount(1);
  await expect(page.getByTestId("video-job-row")).toContainText("Ready");
  await page.screenshot({ path: "screenshots/videos-list.png", fullPage: true });
});

test("a script video shows its progress while it renders, and can be canceled", async ({ page }) => {
  test.setTimeout(120_000);
  const headers = await signUp(page);
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Cancel Brand", tone: "calm", voice: "plain" },
  });
  const { brandId } = await brand.json();

  await page.goto("/videos/new");
  await page
    .getByLabel("Script")
    .fill(
      Array.from(
        { length: 20 },
        (_, i) => `Scene ${i + 1} takes its time, slowly and calmly, with many words in it.`,
      ).join(" "),
    );
  await expect(page.getByRole("combobox")).toHaveValue(brandId);
  await page.getByRole("button", { name: "Make the video" }).click();
  await expect(page).toHaveURL(/\/videos\/vjb_[\w-]+$/);
  // A long script renders for a while: the bar shows the progress between 0 and 100.
  const progressBar = page.getByRole("progressbar", { name: "Render progress" });
  await expect(async () => {
    const value = Number(await progressBar.getAttribute("aria-valuenow", { timeout: 1000 }));
    expect(value).toBeGreaterThan(0);
    expect(value).toBeLessThan(100);
  }).toPass({ timeout: 60_000, intervals: [200] });
  await expect(page.getByTestId("video-time-left")).toContainText(/left|Almost done/);
  await page.screenshot({ path: "screenshots/videos-rendering.png", fullPage: true });
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("video-status")).toHaveText("Canceled");
  await expect(page.getByText("This video was canceled before it finished.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Start again" })).toBeVisible();
  // A canceled job shows a placeholder poster in its shape (a script: 16:9), not a broken image.
  await expect(page.getByTestId("video-poster-placeholder")).toHaveAttribute("data-status", "canceled");
  await page.screenshot({ path: "screenshots/videos-canceled.png", fullPage: true });
  await page.goto("/videos");
  await expect(page.getByTestId("video-job-row").getByTestId("video-poster-placeholder")).toContainText(
    "Canceled",
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "screenshots/videos-list-canceled-390.png", fullPage: true });
});
