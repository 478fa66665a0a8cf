import { beforeAll, describe, expect, it } from "vitest";
import { errorEnvelope } from "@/lib/contracts/common";
import { CHANNELS, GOALS, postPage, post as postSchema } from "@/lib/contracts/posts";
import { channelRuleIssues } from "@/lib/posts/channel-rules";
import { newUser, signInAsDemo } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { createBrand, demoBrandId } from "./support/post-fixtures";

const TOPIC = "Our new Ethiopian single-origin espresso, roasted in small batches";

let token: string;
let brandId: string;

beforeAll(async () => {
  token = (await signInAsDemo(baseUrl())).accessToken;
  brandId = await demoBrandId(api, token);
});

const generate = (body: Record<string, unknown>, as = token) =>
  api("/api/content/create", {
    method: "POST",
    token: as,
    json: { brandId, channel: "linkedin", goal: "awareness", topic: TOPIC, ...body },
  });

async function postCount(id = brandId, as = token) {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page = await api(`/api/posts?brandId=${id}&limit=100${cursor ? `&cursor=${cursor}` : ""}`, {
      token: as,
    });
    expect(page.status).toBe(200);
    count += page.body.items.length;
    cursor = page.body.nextCursor;
  } while (cursor);
  return count;
}

function expectError(response: Awaited<ReturnType<typeof api>>, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  const { error } = errorEnvelope.parse(response.body);
  expect(error.code).toBe(code);
  expect(error.requestId).toBe(response.headers.get("x-request-id"));
  return error;
}

describe("POST /api/content/create", () => {
  it("writes a draft for every channel and goal that keeps the channel's rules, and saves it", async () => {
    for (const channel of CHANNELS) {
      for (const goal of GOALS) {
        const response = await generate({ channel, goal });
        expect(response.status, response.text).toBe(201);
        const post = postSchema.parse(response.body);
        expect(response.headers.get("location")).toBe(`/api/posts/${post.postId}`);
        expect(post).toMatchObject({ brandId, channel, goal, status: "draft", topic: TOPIC, videoUrl: null });
        expect(post.caption.length).toBeGreaterThan(40);
        expect(channelRuleIssues(channel, post)).toEqual([]);
        expect(post.generation).toMatchObject({ provider: "local", model: "brand-studio-local-1" });
        expect(post.generation.latencyMs).toBeGreaterThanOrEqual(0);
        expect(post.generation.inputTokens).toBeGreaterThan(0);
        expect(post.generation.outputTokens).toBeGreaterThan(0);
        const saved = await api(response.headers.get("location") ?? "", { token });
        expect(saved.status).toBe(200);
        // The 201 body is the saved post plus versions: here one, the post itself (the brand's main language).
        // GET adds the review history (PostDetail), empty for a new draft.
        const { reviewHistory, ...savedPost } = saved.body;
        expect(reviewHistory).toEqual([]);
        expect({ ...savedPost, versions: [savedPost] }).toEqual(response.body);
        expect(saved.body).toMatchObject({ language: "en", groupId: saved.body.postId });
      }
    }
  });

  it("gives the same draft for the same seed and a different one for the next seed, each a new post", async () => {
    const first = await generate({ channel: "instagram", goal: "sales", seed: 100 });
    const again = await generate({ channel: "instagram", goal: "sales", seed: 100 });
    const next = await generate({ channel: "instagram", goal: "sales", seed: 101 });
    expect(again.body.postId).not.toBe(first.body.postId);
    expect(again.body.caption).toBe(first.body.caption);
    expect(next.body.caption.split("\n")[0]).not.toBe(first.body.caption.split("\n")[0]);
    expect(next.body.generation.seed).toBe(101);
  });

  it("answers 401 without a token", async () => {
    const response = await api("/api/content/create", { method: "POST", json: { brandId, topic: TOPIC } });
    expectError(response, 401, "unauthorized");
  });

  it.each([
    ["an unknown channel", { channel: "tiktok" }, "channel"],
    ["an unknown goal", { goal: "virality" }, "goal"],
    ["a topic over 500 characters", { topic: `${"word ".repeat(101)}` }, "topic"],
    [
      "eleven assets",
      { assets: Array.from({ length: 11 }, () => ({ type: "image", url: "https://a.example/x.jpg" })) },
      "assets",
    ],
    ["an asset that is not a URL", { assets: [{ type: "image", url: "not a url" }] }, "assets.0.url"],
    ["a tone override over 200 characters", { toneOverride: "x".repeat(201) }, "toneOverride"],
    ["a missing topic", { topic: undefined }, "topic"],
  ])("answers 400 for %s, naming the field", async (_, body, path) => {
    const error = expectError(await generate(body), 400, "invalid_request");
    expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it("answers 404 for an unknown brand and for another user's brand", async () => {
    expectError(await generate({ brandId: "brd_doesnotexist00" }), 404, "not_found");
    const stranger = await newUser(baseUrl());
    expectError(await generate({}, stranger.token), 404, "not_found");
  });

  it("answers brief_too_short for a topic under 3 words or 15 characters, and saves nothing", async () => {
    const before = await postCount();
    for (const topic of ["Espresso launch", "new cold brew", "   espresso    launch   "]) {
      const error = expectError(await generate({ topic }), 422, "brief_too_short");
      expect(error.retryable).toBe(false);
    }
    expect(await postCount()).toBe(before);
  });

  it("answers brand_context_missing for a brand with no tone or voice", async () => {
    const bare = await createBrand(api, token, { name: "Bare Brand" });
    const error = expectError(await generate({ brandId: bare }), 422, "brand_context_missing");
    expect(error.details).toMatchObject({ missing: ["tone", "voice"] });
    const toneOnly = await createBrand(api, token, { name: "Tone Only", tone: "calm" });
    expect(
      expectError(await generate({ brandId: toneOnly }), 422, "brand_context_missing").details,
    ).toMatchObject({
      missing: ["voice"],
    });
    expect(await postCount(bare)).toBe(0);
  });

  it("answers moderation_required for a banned word or a policy term in the brief, and saves nothing", async () => {
    const before = await postCount();
    const banned = expectError(
      await generate({ topic: "The cheapest espresso you will find in town" }),
      422,
      "moderation_required",
    );
    expect(banned.details).toEqual({ stage: "brief", categories: ["banned_words"], terms: ["cheap"] });
    const policy = expectError(
      await generate({ topic: "A pyramid scheme for coffee lovers everywhere" }),
      422,
      "moderation_required",
    );
    expect(policy.details).toMatchObject({ categories: ["fraud"], terms: ["pyramid scheme"] });
    expect(await postCount()).toBe(before);
  });
});

describe("GET and PATCH /api/posts/{postId}", () => {
  let postId: string;

  beforeAll(async () => {
    const response = await generate({ channel: "telegram", goal: "announcement", seed: 5 });
    postId = response.body.postId;
  });

  it("answers 404 for an unknown post, a malformed id and another user's post", async () => {
    expectError(await api("/api/posts/pst_doesnotexist00", { token }), 404, "not_found");
    expectError(await api("/api/posts/nonsense", { token }), 404, "not_found");
    const stranger = await newUser(baseUrl());
    expectError(await api(`/api/posts/${postId}`, { token: stranger.token }), 404, "not_found");
    expectError(
      await api(`/api/posts/${postId}`, {
        method: "PATCH",
        token: stranger.token,
        json: { caption: "Mine now" },
      }),
      404,
      "not_found",
    );
  });

  it("saves edits to the caption, hashtags, media plan and video", async () => {
    const edit = {
      caption: "Edited by a human.\n\nSee you there.",
      hashtags: ["#Edited", "#Café_2025"],
      mediaPlan: { format: "text_only", items: [] },
      // Another site's video (a file of this site must be the brand's own: media-ownership.test.ts).
      videoUrl: "https://cdn.example.com/roast.mp4",
    };
    const response = await api(`/api/posts/${postId}`, { method: "PATCH", token, json: edit });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject(edit);
    expect(Date.parse(response.body.updatedAt)).toBeGreaterThan(Date.parse(response.body.createdAt));
    const { reviewHistory, ...reloaded } = (await api(`/api/posts/${postId}`, { token })).body;
    expect(reviewHistory).toEqual([]);
    expect(reloaded).toEqual(response.body);

    const cleared = await api(`/api/posts/${postId}`, { method: "PATCH", token, json: { videoUrl: null } });
    expect(cleared.body.videoUrl).toBeNull();
    expect(cleared.body.caption).toBe(edit.caption);
  });

  it("refuses edits that break the channel's rules, with details, and keeps the post as it was", async () => {
    const before = (await api(`/api/posts/${postId}`, { token })).body;
    const image = { type: "image", description: "A photo.", altText: "A photo.", aspectRatio: "16:9" };
    const cases: [Record<string, unknown>, string][] = [
      [{ caption: "x".repeat(4097) }, "caption"],
      [{ caption: "x".repeat(1100), mediaPlan: { format: "single_image", items: [image] } }, "caption"],
      [{ hashtags: ["#a", "#b", "#c", "#d", "#e", "#f"] }, "hashtags"],
      [{ hashtags: ["#Coffee", "#COFFEE"] }, "hashtags.1"],
      [{ hashtags: ["no-hash"] }, "hashtags.0"],
      [{ mediaPlan: { format: "carousel", items: [image] } }, "mediaPlan.format"],
      [{ videoUrl: "javascript:alert(1)" }, "videoUrl"],
      [{}, "(body)"],
    ];
    for (const [body, path] of cases) {
      const error = expectError(
        await api(`/api/posts/${postId}`, { method: "PATCH", token, json: body }),
        400,
        "invalid_request",
      );
      expect(error.details, JSON.stringify(body)).toEqual(
        expect.arrayContaining([expect.objectContaining({ path })]),
      );
    }
    // Telegram allows 1,024 characters with media: the caption saved above becomes too long with an image.
    await api(`/api/posts/${postId}`, { method: "PATCH", token, json: { caption: "y".repeat(2000) } });
    const withImage = await api(`/api/posts/${postId}`, {
      method: "PATCH",
      token,
      json: { mediaPlan: { format: "single_image", items: [image] } },
    });
    expect(expectError(withImage, 400, "invalid_request").message).toContain("1024");
    const after = (await api(`/api/posts/${postId}`, { token })).body;
    expect(after.mediaPlan).toEqual(before.mediaPlan);
  });
});

describe("GET /api/posts?brandId=", () => {
  it("lists a brand's posts newest first, a page at a time, with no overlap", async () => {
    const brand = await createBrand(api, token, {
      name: "Paged Brand",
      tone: "calm",
      voice: "plain and short",
    });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await generate({ brandId: brand, topic: `Post number ${i} about our winter menu` });
      created.push(response.body.postId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await api(`/api/posts?brandId=${brand}&limit=2${cursor ? `&cursor=${cursor}` : ""}`, {
        token,
      });
      expect(response.status).toBe(200);
      const page = postPage.parse(response.body);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((item) => item.postId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
  });

  it("needs a brandId, a cursor it issued and a limit from 1 to 100", async () => {
    expectError(await api("/api/posts", { token }), 400, "invalid_request");
    expectError(await api(`/api/posts?brandId=${brandId}&cursor=bogus`, { token }), 400, "invalid_request");
    expectError(await api(`/api/posts?brandId=${brandId}&limit=0`, { token }), 400, "invalid_request");
    expectError(await api(`/api/posts?brandId=${brandId}&limit=101`, { token }), 400, "invalid_request");
  });

  it("answers 404 for another user's brand and 401 without a token", async () => {
    const stranger = await newUser(baseUrl());
    expectError(await api(`/api/posts?brandId=${brandId}`, { token: stranger.token }), 404, "not_found");
    expectError(await api(`/api/posts?brandId=${brandId}`), 401, "unauthorized");
  });
});
