import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandResponse } from "@/lib/contracts/brands";
import { type PostView, post as postSchema } from "@/lib/contracts/posts";
import { newUser } from "./support/auth";
import { type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai";
import { api, baseUrl } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";

// Issue 41, "Posts arrive complete": every image item of a new draft has an image when the draft is saved
// (the brand's card, drawn without a model), and with `imageSource: "model"` and an image model the
// model's picture replaces each card in the background, each item saying how far it got.

type Call = (urlPath: string, init?: Parameters<typeof api>[1]) => ReturnType<typeof api>;
const PRIMARY = "#0B3D91";
const TOPIC = "our new seasonal autumn blend arrives this week";

async function fetchBytes(url: string, server: string) {
  const response = await fetch(new URL(url, server));
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The RGB of one pixel of an image. */
async function pixel(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

const near = (rgb: number[], hex: string, tolerance = 30) => {
  const target = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return rgb.every((value, i) => Math.abs(value - target[i]) <= tolerance);
};

async function newBrand(as: Call, fields: Record<string, unknown> = {}) {
  const response = await as("/api/brands", {
    method: "POST",
    json: { name: "Arrive Brand", tone: "warm", voice: "plain", primaryColor: PRIMARY, ...fields },
  });
  expect(response.status, response.text).toBe(201);
  return brandResponse.parse(response.body);
}

async function create(as: Call, brandId: string, extra: Record<string, unknown> = {}) {
  const response = await as("/api/content/create", {
    method: "POST",
    json: { brandId, channel: "instagram", goal: "awareness", topic: TOPIC, ...extra },
  });
  expect(response.status, response.text).toBe(201);
  return postSchema.parse(response.body);
}

const imageItems = (post: PostView) => post.mediaPlan.items.filter((item) => item.type === "image");

/** Every image item holds a JPEG of its shape that is the brand's card (its primary colour at the top left). */
async function expectCards(post: PostView, server: string) {
  for (const item of imageItems(post)) {
    expect(item.imageUrl).toMatch(/^\/media\/posts\/pst_[\w-]+\/media\/[\w-]+\.jpg\?exp=/);
    const { status, bytes } = await fetchBytes(item.imageUrl as string, server);
    expect(status).toBe(200);
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe("jpeg");
    const [w, h] = item.aspectRatio.split(":").map(Number);
    expect(Math.abs((meta.width ?? 0) / (meta.height ?? 1) - w / h)).toBeLessThan(0.01);
    expect(near(await pixel(bytes, 10, 10), PRIMARY)).toBe(true);
  }
}

describe("new drafts without an image model", () => {
  let token: string;
  const call: Call = (urlPath, init = {}) => api(urlPath, { token, ...init });
  beforeAll(async () => {
    ({ token } = await newUser(baseUrl()));
  });

  it("arrive with the brand's card in every image item, from the JSON and the streamed operation", async () => {
    const brand = await newBrand(call);
    expect(brand.imageSource).toBe("cards");
    // The local writer plans media by seed: look at several drafts so some have image items.
    const posts: PostView[] = [];
    for (let seed = 1; seed <= 6; seed++) posts.push(await create(call, brand.brandId, { seed }));
    const stream = await call("/api/content/create/stream", {
      method: "POST",
      json: { brandId: brand.brandId, channel: "instagram", goal: "awareness", topic: TOPIC, seed: 7 },
    });
    expect(stream.status, stream.text).toBe(200);
    const done = stream.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .find((event) => event.type === "done");
    posts.push(postSchema.parse(done.post));

    expect(posts.flatMap(imageItems).length).toBeGreaterThan(0);
    for (const post of posts) {
      await expectCards(post, baseUrl());
      for (const item of imageItems(post)) expect(item.imageJob).toBeNull();
      // What GET answers is what the create answered: the images are saved with the draft.
      const read = postSchema.parse((await call(`/api/posts/${post.postId}`)).body);
      expect(read.mediaPlan).toEqual(post.mediaPlan);
      expect(read.version).toBe(post.version);
    }
  });

  it("keeps drawing cards for a brand on model images when no image model is configured", async () => {
    const brand = await newBrand(call, { imageSource: "model" });
    expect(brand.imageSource).toBe("model");
    const posts: PostView[] = [];
    for (let seed = 1; seed <= 4; seed++) posts.push(await create(call, brand.brandId, { seed }));
    expect(posts.flatMap(imageItems).length).toBeGreaterThan(0);
    for (const post of posts) {
      await expectCards(post, baseUrl());
      for (const item of imageItems(post)) expect(item.imageJob).toBeNull();
    }
  });

  it("sets imageSource with PATCH, and refuses anything but cards or model", async () => {
    const brand = await newBrand(call);
    const set = await call(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      json: { imageSource: "model" },
    });
    expect(set.status, set.text).toBe(200);
    expect(brandResponse.parse(set.body).imageSource).toBe("model");
    expect((await call(`/api/brands/${brand.brandId}`)).body.imageSource).toBe("model");
    const bad = await call(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      json: { imageSource: "photos" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "imageSource", message: 'imageSource must be "cards" or "model".' }),
      ]),
    );
  });
});

describe("new drafts with an image model (fake OpenAI)", () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  const as =
    (token: string): Call =>
    (urlPath, init = {}) =>
      api(urlPath, { server: server.url, token, ...init });
  const read = async (call: Call, postId: string) =>
    postSchema.parse((await call(`/api/posts/${postId}`)).body);
  /** Reads the post until no image item is queued or being made. */
  const settled = (call: Call, postId: string) =>
    waitFor(
      async () => {
        const post = await read(call, postId);
        const busy = imageItems(post).some(
          (item) => item.imageJob?.state === "pending" || item.imageJob?.state === "generating",
        );
        return !busy && post;
      },
      { what: "the draft's images to settle" },
    );

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer({
      env: {
        OPENAI_API_KEY: "sk-test-images",
        OPENAI_BASE_URL: fake.url,
        IMAGE_MODEL: "gpt-image-1",
        RATE_LIMIT_IMAGE_PER_MINUTE: "3",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  /** The model writes a two-image carousel for every brief. */
  function twoImages() {
    fake.reset();
    fake.state.chat = {
      kind: "draft",
      draft: (brief) => ({
        caption: `${brief.topic}: two pictures of it.`,
        hashtags: ["#Coffee"],
        mediaPlan: {
          format: "carousel",
          items: [
            {
              type: "image",
              description: "The bag",
              altText: "A bag",
              aspectRatio: "1:1",
              overlayText: "New",
            },
            {
              type: "image",
              description: "The cup",
              altText: "A cup",
              aspectRatio: "4:5",
              overlayText: null,
            },
          ],
        },
      }),
    };
  }

  it("draws cards only, without calling the image model, for a brand on cards", async () => {
    twoImages();
    const call = as((await newUser(server.url)).token);
    const brand = await newBrand(call);
    const post = await create(call, brand.brandId);
    expect(imageItems(post)).toHaveLength(2);
    await expectCards(post, server.url);
    for (const item of imageItems(post)) expect(item.imageJob).toBeNull();
    expect(fake.imageRequests()).toHaveLength(0);
  });

  it("answers with the cards at once, then each item becomes the model's image", async () => {
    twoImages();
    fake.state.image = { kind: "hold", color: "#12AB34" };
    const call = as((await newUser(server.url)).token);
    const brand = await newBrand(call, { imageSource: "model" });
    // The image model answers nothing until released below: the draft answers without waiting for it.
    const post = await create(call, brand.brandId);
    expect(post.status).toBe("draft");
    await expectCards(post, server.url);
    for (const item of imageItems(post)) expect(["pending", "generating"]).toContain(item.imageJob?.state);
    const cards = imageItems(post).map((item) => item.imageUrl as string);

    // While the model works, the item says so and still shows its card.
    await waitFor(() => fake.heldImages() > 0, { what: "an image call" });
    const working = await read(call, post.postId);
    expect(imageItems(working).some((item) => item.imageJob?.state === "generating")).toBe(true);
    expect(working.version).toBe(post.version);

    fake.releaseImages();
    const done = await settled(call, post.postId);
    expect(fake.imageRequests()).toHaveLength(2);
    expect(fake.imageRequests()[0].body.prompt).toContain("The bag");
    for (const [index, item] of imageItems(done).entries()) {
      expect(item.imageJob).toEqual({ state: "ready" });
      const image = (await fetchBytes(item.imageUrl as string, server.url)).bytes;
      expect(near(await pixel(image, 100, 100), "#12AB34", 12)).toBe(true);
      // The card it replaced is gone from the store.
      expect((await fetchBytes(cards[index], server.url)).status).toBe(404);
    }
    // A new image is new content (a new version); the draft stays a draft.
    expect(done.version).not.toBe(post.version);
    expect(done.status).toBe("draft");

    // An editor that still holds the draft as created (its cards, its pending states) and saves it keeps
    // the model's images: the card's URL names the image that replaced it, and a sent state is ignored.
    const stale = await call(`/api/posts/${post.postId}`, {
      method: "PATCH",
      json: { mediaPlan: post.mediaPlan },
    });
    expect(stale.status, stale.text).toBe(200);
    const pathsOf = (view: PostView) =>
      imageItems(view).map((item) => new URL(item.imageUrl as string, server.url).pathname);
    expect(pathsOf(postSchema.parse(stale.body))).toEqual(pathsOf(done));
    expect(imageItems(postSchema.parse(stale.body)).map((item) => item.imageJob)).toEqual([
      { state: "ready" },
      { state: "ready" },
    ]);
  });

  it("keeps the card and says why when the image model fails", async () => {
    twoImages();
    fake.state.image = { kind: "status", status: 500 };
    const call = as((await newUser(server.url)).token);
    const brand = await newBrand(call, { imageSource: "model" });
    const post = await create(call, brand.brandId);
    const done = await settled(call, post.postId);
    expect(fake.imageRequests().length).toBeGreaterThanOrEqual(2);
    for (const [index, item] of imageItems(done).entries()) {
      expect(item.imageJob?.state).toBe("failed");
      expect(item.imageJob?.error).toContain("HTTP 500");
      expect(item.imageJob?.error).toContain("The card stays");
      const sameCard = new URL(item.imageUrl as string, server.url).pathname;
      expect(sameCard).toBe(new URL(imageItems(post)[index].imageUrl as string, server.url).pathname);
      expect(
        near(await pixel((await fetchBytes(item.imageUrl as string, server.url)).bytes, 10, 10), PRIMARY),
      ).toBe(true);
    }
    // Nothing changed in the content: the same version as created.
    expect(done.version).toBe(post.version);
  });

  it("counts each model image against the paid image rate limit; past it the item keeps its card and says so", async () => {
    twoImages();
    const call = as((await newUser(server.url)).token);
    const brand = await newBrand(call, { imageSource: "model" });
    // The window is a fixed minute: start early in one, so every count falls in it.
    const secondsLeft = 60 - (Math.floor(Date.now() / 1000) % 60);
    if (secondsLeft < 20) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 500));
    const first = await create(call, brand.brandId);
    const second = await create(call, brand.brandId);
    const [a, b] = imageItems(second);
    expect(a.imageJob?.state).not.toBe("failed");
    expect(b.imageJob?.state).toBe("failed");
    expect(b.imageJob?.error).toMatch(/image rate limit was reached.*at most 3 a minute/);
    await settled(call, first.postId);
    const done = await settled(call, second.postId);
    expect(imageItems(done).map((item) => item.imageJob?.state)).toEqual(["ready", "failed"]);
    await expectCards(
      { ...done, mediaPlan: { ...done.mediaPlan, items: [imageItems(done)[1]] } },
      server.url,
    );
    // Three images reached the model; the fourth was refused before it.
    expect(fake.imageRequests()).toHaveLength(3);
    const generate = await call(`/api/posts/${second.postId}/media/1/image/generate`, { method: "POST" });
    expect(generate.status).toBe(429);
    expect(fake.imageRequests()).toHaveLength(3);
  });

  it("sends an approved post back to review when its model image lands later, like any image change", async () => {
    twoImages();
    fake.state.image = { kind: "hold", color: "#12AB34" };
    const call = as((await newUser(server.url)).token);
    const brand = await newBrand(call, { imageSource: "model", requiresApproval: true });
    const post = await create(call, brand.brandId);
    expect((await call(`/api/posts/${post.postId}/submit`, { method: "POST", json: {} })).status).toBe(200);
    const reviewed = await call(`/api/posts/${post.postId}/review`, {
      method: "POST",
      json: { decision: "approve", version: post.version },
    });
    expect(reviewed.status, reviewed.text).toBe(200);
    expect(reviewed.body.status).toBe("approved");

    fake.releaseImages();
    const done = await settled(call, post.postId);
    expect(imageItems(done).every((item) => item.imageJob?.state === "ready")).toBe(true);
    // The approved version is not what the post holds now: back to review, as for an uploaded image.
    expect(done.status).toBe("in_review");
    expect(done.approvedVersion).toBe(post.version);
    expect(done.version).not.toBe(post.version);
  });
});
