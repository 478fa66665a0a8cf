import { expect } from "vitest";
import type { api } from "./http";
import { waitFor } from "./video-media";

type Call = (path: string, init?: Parameters<typeof api>[1]) => ReturnType<typeof api>;

/** Reads a publication until it is published or failed; a timeout names the last answer it saw. */
export async function settledPublication(call: Call, publicationId: string, timeoutMs = 40_000) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON.
  let last: any = {};
  await waitFor(
    async () => {
      last = (await call(`/api/publications/${publicationId}`)).body;
      return last.status === "published" || last.status === "failed";
    },
    { timeoutMs, what: `publication ${publicationId}` },
  ).catch((error: Error) => {
    throw new Error(`${error.message} Last: ${JSON.stringify(last)}`);
  });
  return last;
}

/**
 * A new post on `channel` with `caption` and a media plan of `images` images, the first `generated` of them
 * drawn (each through the image endpoint); `extra` goes into the PATCH too (a `videoUrl`, say).
 */
export async function newImagePost(
  call: Call,
  {
    brandId,
    channel,
    caption,
    images = 0,
    generated = images,
    extra = {},
  }: {
    brandId: string;
    channel: "instagram" | "linkedin" | "telegram";
    caption: string;
    images?: number;
    generated?: number;
    extra?: Record<string, unknown>;
  },
) {
  const created = await call("/api/content/create", {
    method: "POST",
    json: {
      brandId,
      channel,
      goal: "announcement",
      topic: "Our autumn seasonal blend arrives in every café next week",
    },
  });
  expect(created.status, created.text).toBe(201);
  const postId = created.body.postId as string;
  const items = Array.from({ length: images }, (_, index) => ({
    type: "image",
    aspectRatio: "1:1",
    description: `Picture ${index + 1} of the roast`,
    altText: `Roast, picture ${index + 1}`,
  }));
  const patched = await call(`/api/posts/${postId}`, {
    method: "PATCH",
    json: {
      caption,
      hashtags: [],
      mediaPlan: { format: images === 0 ? "text_only" : images === 1 ? "single_image" : "carousel", items },
      ...extra,
    },
  });
  expect(patched.status, patched.text).toBe(200);
  for (let index = 0; index < generated; index++) {
    const made = await call(`/api/posts/${postId}/media/${index}/image/generate`, { method: "POST" });
    expect(made.status, made.text).toBe(200);
  }
  return postId;
}
