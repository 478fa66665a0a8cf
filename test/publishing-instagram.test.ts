import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signOAuthState } from "@/lib/publishing/oauth-state";
import { newUser } from "./support/auth";
import { expectAvatarAfterExpiry, expectKeptAvatar } from "./support/channel-avatar";
import { type FakeInstagram, fakeInstagramEnv, startFakeInstagram } from "./support/fake-instagram";
import { api } from "./support/http";
import { authorizeOAuth, followOAuthCallback } from "./support/oauth-consent";
import { providerCalls } from "./support/prometheus";
import { newImagePost, settledPublication } from "./support/publication-api";
import { expectNoSecretAtRest } from "./support/secrets-at-rest";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";

// Instagram through OAuth ("Instagram API with Instagram Login") and content publishing, against the real
// server and a fake Instagram that speaks the documented OAuth, token, /me, container, media_publish and
// publishing-limit APIs, fetches the media it is given by URL (as Instagram does) and records every post.

let instagram: FakeInstagram;
let server: TestServer;
let token: string;
let userId: string;
let brandId: string;
let channelId: string;

const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
  api(p, { server: server.url, token, ...init });

const authorize = (choice: "allow" | "allow-publishing" | "cancel" = "allow", as = token) =>
  authorizeOAuth("instagram", { server: server.url, token: as, brandId }, choice);

const callback = (url: URL, as = token) => followOAuthCallback(server.url, as, url);

async function connect() {
  const { callback: url } = await authorize();
  const done = await callback(url);
  expect(done.status, done.text).toBe(303);
  return done;
}

async function channels() {
  const list = await call(`/api/channels?brandId=${brandId}`);
  expect(list.status).toBe(200);
  return list.body.items as { channelId: string; channel: string; [key: string]: unknown }[];
}

/** A post with `items` image items in its media plan, `generated` of them with a generated image. */
const newPost = (
  caption: string,
  items = 0,
  extra: Record<string, unknown> = {},
  generated = items,
  channel: "instagram" | "linkedin" = "instagram",
) => newImagePost(call, { brandId, channel, caption, images: items, generated, extra });

const publish = (postId: string) =>
  call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId } });

const publishAs = (postId: string, placement: "feed" | "story") =>
  call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId, placement } });

const settled = (publicationId: string) => settledPublication(call, publicationId, 40_000);

const metricsToken = `metrics-${randomBytes(12).toString("hex")}`;
const instagramCalls = (outcome: string) => providerCalls(server.url, metricsToken, "instagram", outcome);

const containersMade = () => instagram.calls.filter((c) => /^POST .*\/media$/.test(c)).length;
/** What the publishing code asked: the results collector's reads (insights, followers) run on their own clock. */
const publishingCalls = () =>
  instagram.calls.filter((c) => !c.endsWith("/insights") && !/^GET .*\/me$/.test(c));

beforeAll(async () => {
  instagram = await startFakeInstagram();
  server = await startTestServer({
    env: {
      ...fakeInstagramEnv(instagram),
      PUBLISH_SWEEP_INTERVAL_SECONDS: "2",
      PUBLISH_TIMEOUT_MS: "8000",
      METRICS_TOKEN: metricsToken,
    },
  });
  ({ token, userId } = await newUser(server.url));
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "Instagram Brand", tone: "warm and direct", voice: "short sentences" },
  });
  brandId = brand.body.brandId;
});

afterAll(async () => {
  await server?.stop();
  await instagram?.close();
});

describe("connecting Instagram through OAuth", () => {
  it("start redirects to the consent page with a signed state; Allow connects the professional account", async () => {
    const { authorizeUrl, callback: back } = await authorize();
    expect(authorizeUrl.origin).toBe(instagram.url);
    expect(authorizeUrl.pathname).toBe("/oauth/authorize");
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: "code",
      client_id: instagram.appId,
      redirect_uri: `${server.url}/api/channels/oauth/instagram/callback`,
      scope: "instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights",
    });
    expect(authorizeUrl.searchParams.get("state")).toMatch(/^[\w-]+\.[\w-]{43}$/);

    const done = await callback(back);
    expect(done.status, done.text).toBe(303);
    expect(done.headers.get("location")).toMatch(new RegExp(`^/brands/${brandId}\\?connected=chn_`));
    const list = await channels();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      channel: "instagram",
      accountName: "Acme Roasters",
      accountHandle: "@acme_roasters",
      status: "active",
      mediaDelivery: "url",
      resultsReconnect: false,
    });
    await expectKeptAvatar(server.url, list[0].avatarUrl, `${instagram.url}/avatar.jpg`);
    // The test server's APP_URL is 127.0.0.1: the connection says Instagram could not fetch from it.
    expect(list[0].statusMessage).toMatch(/APP_URL is not a public address/);
    channelId = list[0].channelId;
    // The code for an hour's token, that for a 60-day one.
    expect(instagram.grants).toEqual([
      { grantType: "authorization_code", status: 200 },
      { grantType: "ig_exchange_token", status: 200 },
    ]);
    expect(JSON.stringify(list)).not.toMatch(/IGAA/);
    for (const issued of instagram.issuedTokens()) expect(server.logs()).not.toContain(issued);

    // The same account again replaces the tokens of the same connection.
    await connect();
    expect((await channels()).map((c) => c.channelId)).toEqual([channelId]);
    await expectAvatarAfterExpiry({
      platform: instagram,
      link: `${instagram.url}/avatar.jpg`,
      server,
      reconnect: connect,
      channels,
    });
  });

  it("a grant without the insights permission asks for a reconnect for results only; a full grant ends it", async () => {
    const { callback: partial } = await authorize("allow-publishing");
    const partialDone = await callback(partial);
    expect(partialDone.status, partialDone.text).toBe(303);
    const [limited] = await channels();
    expect(limited).toMatchObject({ channelId, status: "active", resultsReconnect: true });
    // Publishing keeps working without it.
    const post = await newPost("Still publishing without insights", 1);
    const created = await publish(post);
    expect(created.status, created.text).toBe(202);
    expect((await settled(created.body.publicationId)).status).toBe("published");

    await connect();
    expect(await channels()).toEqual([expect.objectContaining({ channelId, resultsReconnect: false })]);
  });

  it("answers a clear envelope error to a bad, expired, foreign or declined state, connecting nothing", async () => {
    const { callback: back } = await authorize();
    const state = back.searchParams.get("state") as string;
    const withState = (value: string) => {
      const url = new URL(back);
      url.searchParams.set("state", value);
      return url;
    };
    const altered = await callback(withState(`${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`));
    expect(altered.status).toBe(400);
    expect(altered.body.error).toMatchObject({
      code: "oauth_state_invalid",
      details: { reason: "signature" },
    });

    const old = signOAuthState(
      server.authSecret,
      { userId, brandId, channel: "instagram" },
      Math.floor(Date.now() / 1000) - 700,
    );
    const expired = await callback(withState(old));
    expect(expired.body.error).toMatchObject({ code: "oauth_state_invalid", details: { reason: "expired" } });

    // A state made for LinkedIn is refused on Instagram's callback.
    const linkedinState = signOAuthState(server.authSecret, { userId, brandId, channel: "linkedin" });
    const otherPlatform = await callback(withState(linkedinState));
    expect(otherPlatform.body.error).toMatchObject({
      code: "oauth_state_invalid",
      details: { reason: "channel" },
    });

    const other = await newUser(server.url);
    const foreign = await callback(back, other.token);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: "oauth_state_invalid", details: { reason: "foreign" } });

    const { callback: declined } = await authorize("cancel");
    const cancel = await callback(declined);
    expect(cancel.status).toBe(422);
    expect(cancel.body.error).toMatchObject({
      code: "channel_check_failed",
      details: { check: "oauth", platformMessage: "The user denied your request." },
    });
    expect(cancel.body.error.message).toMatch(/^Instagram did not grant access/);

    // A code used once is refused by Instagram the second time.
    const { callback: fresh } = await authorize();
    expect((await callback(fresh)).status).toBe(303);
    const reused = await callback(fresh);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ code: "channel_check_failed", details: { check: "oauth" } });
    expect(await channels()).toHaveLength(1);
  });

  it("says what to set when the server has no Instagram app", async () => {
    const bare = await startTestServer({ env: { INSTAGRAM_APP_ID: "", INSTAGRAM_APP_SECRET: "" } });
    try {
      const user = await newUser(bare.url);
      const brand = await api("/api/brands", {
        server: bare.url,
        token: user.token,
        method: "POST",
        json: { name: "Bare", tone: "plain", voice: "plain" },
      });
      const start = await api(`/api/channels/oauth/instagram/start?brandId=${brand.body.brandId}`, {
        server: bare.url,
        token: user.token,
        redirect: "manual",
      });
      expect(start.status).toBe(409);
      expect(start.body.error).toMatchObject({
        code: "channel_not_configured",
        details: { channel: "instagram", missing: ["INSTAGRAM_APP_ID", "INSTAGRAM_APP_SECRET"] },
      });
    } finally {
      await bare.stop();
    }
  });
});

describe("publishing to Instagram", () => {
  it("publishes a single image: Instagram fetches it by signed URL, then one media_publish and the permalink", async () => {
    const before = instagram.posts.length;
    const caption = "Autumn blend arrives next week #coffee";
    const postId = await newPost(caption, 1);
    const created = await publish(postId);
    expect(created.status, created.text).toBe(202);
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(instagram.posts).toHaveLength(before + 1);
    const sent = instagram.posts.at(-1);
    expect(sent).toMatchObject({ mediaType: "IMAGE", caption, igUserId: instagram.account.userId });
    expect(done.externalId).toBe(sent?.id);
    expect(done.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/);
    const [image] = sent?.media ?? [];
    expect(image.contentType).toBe("image/jpeg");
    expect(image.bytes).toBeGreaterThan(1000);
    // A signed URL of this server: without its signature it is refused.
    expect(image.url.startsWith(`${server.url}/media/`)).toBe(true);
    expect(new URL(image.url).search).not.toBe("");
    const unsigned = await fetch(image.url.split("?")[0]);
    expect(unsigned.ok).toBe(false);
    expect((await call(`/api/posts/${postId}`)).body.status).toBe("published");
    // The access token travels in the query: never in the server's logs.
    for (const issued of instagram.issuedTokens()) expect(server.logs()).not.toContain(issued);
  });

  it("publishes 2 to 10 images as one carousel of child containers", async () => {
    const before = instagram.posts.length;
    const created = await publish(await newPost("Three roasts, one week.", 3));
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(instagram.posts).toHaveLength(before + 1);
    const sent = instagram.posts.at(-1);
    expect(sent?.mediaType).toBe("CAROUSEL_ALBUM");
    expect(sent?.media).toHaveLength(3);
    expect(new Set(sent?.media.map((item) => item.url)).size).toBe(3);
  });

  it("publishes the post's video as a reel", async () => {
    const before = instagram.posts.length;
    const created = await publish(
      await newPost("Watch how we roast.", 0, { videoUrl: `${instagram.url}/sample.mp4` }),
    );
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(instagram.posts).toHaveLength(before + 1);
    expect(instagram.posts.at(-1)).toMatchObject({ mediaType: "REELS" });
    expect(instagram.posts.at(-1)?.media[0]).toMatchObject({ contentType: "video/mp4" });
    expect(done.permalink).toMatch(/^https:\/\/www\.instagram\.com\/reel\//);
  });

  it("publishes a video rendered here as a reel, fetched by its signed URL", async () => {
    const videos = videoClient(server.url, token);
    const job = await videos.createJob({ brandId, mode: "regular", script: SCRIPT });
    expect(job.status, job.text).toBe(202);
    const { job: rendered } = await videos.pollJob(
      job.body.jobId,
      (current) => current.status === "succeeded",
    );
    const videoUrl = rendered.videoUrl as string;
    const before = instagram.posts.length;
    const created = await publish(await newPost("Watch how we roast, rendered here.", 0, { videoUrl }));
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(instagram.posts).toHaveLength(before + 1);
    const [video] = instagram.posts.at(-1)?.media ?? [];
    expect(video.contentType).toBe("video/mp4");
    expect(video.bytes).toBeGreaterThan(10_000);
    expect(video.url.startsWith(`${server.url}/media/`)).toBe(true);
    expect(new URL(video.url).search).not.toBe("");
  });

  it("publishes a story: the first generated image, without the caption, and the feed does not list it", async () => {
    const before = instagram.posts.length;
    const postId = await newPost("A story needs no words #coffee", 2);
    const created = await publishAs(postId, "story");
    expect(created.status, created.text).toBe(202);
    const done = await settled(created.body.publicationId);
    expect(done, JSON.stringify(done)).toMatchObject({ status: "published", placement: "story" });
    expect(instagram.posts).toHaveLength(before + 1);
    // The fake refuses a caption on a story: none was sent.
    const story = instagram.posts.at(-1);
    expect(story).toMatchObject({ mediaType: "STORY", caption: "" });
    expect(story?.media).toHaveLength(1);
    expect(story?.media[0].contentType).toBe("image/jpeg");
    const firstImage = (await call(`/api/posts/${postId}`)).body.mediaPlan.items[0].imageUrl as string;
    expect(new URL(story?.media[0].url ?? "").pathname).toBe(new URL(firstImage, server.url).pathname);
    expect(done.externalId).toBe(story?.id);
    expect(done.permalink).toMatch(/^https:\/\/www\.instagram\.com\/stories\//);
  });

  it("publishes the post's video as a story, and finds a story that posted though media_publish failed", async () => {
    const before = instagram.posts.length;
    const videoPost = await newPost("Roast day, in a story.", 0, { videoUrl: `${instagram.url}/sample.mp4` });
    const video = await settled((await publishAs(videoPost, "story")).body.publicationId);
    expect(video.status, JSON.stringify(video)).toBe("published");
    expect(instagram.posts.at(-1)).toMatchObject({ mediaType: "STORY", caption: "" });
    expect(instagram.posts.at(-1)?.media[0].contentType).toBe("video/mp4");

    // The same post in the feed first: a story's outcome is never mistaken for a feed post of the same caption.
    const imagePost = await newPost("Posted, though Instagram said otherwise, twice.", 1);
    const feed = await settled((await publishAs(imagePost, "feed")).body.publicationId);
    expect(feed).toMatchObject({ status: "published", placement: "feed" });
    instagram.behavior.failAfterPublish = { count: 1, status: 502 };
    const lost = await settled((await publishAs(imagePost, "story")).body.publicationId);
    expect(lost, JSON.stringify(lost)).toMatchObject({
      status: "published",
      placement: "story",
      attempts: 1,
    });
    expect(instagram.posts).toHaveLength(before + 3);
    expect(lost.externalId).toBeNull();
    expect(lost.externalId).not.toBe(feed.externalId);
    expect(lost.permalink).toBe("https://www.instagram.com/acme_roasters");
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "refuses a story of one of the brand's videos that lasts over 60 s, naming its length",
    async () => {
      const videos = videoClient(server.url, token);
      const job = await videos.createJob({ brandId, mode: "regular", script: SCRIPT });
      const { job: rendered } = await videos.pollJob(
        job.body.jobId,
        (current) => current.status === "succeeded",
      );
      // A 75 s render would take a while; the rule reads the length the job recorded.
      const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
      try {
        await sql`update video_jobs set duration_seconds = 75 where id = ${rendered.jobId}`;
      } finally {
        await sql.end();
      }
      const postId = await newPost("A long roast.", 0, { videoUrl: rendered.videoUrl });
      const story = await publishAs(postId, "story");
      expect(story.status).toBe(422);
      expect(story.body.error).toMatchObject({
        code: "publish_rule_violation",
        details: { channel: "instagram", rule: "media_duration", limit: 60, actual: 75, withMedia: true },
      });
      // In the feed the same video is a reel: the story's limit does not apply.
      const feed = await publishAs(postId, "feed");
      expect(feed.status, feed.text).toBe(202);
      expect((await settled(feed.body.publicationId)).status).toBe("published");
    },
  );

  it("refuses a story without media, and a placement it does not know, before sending", async () => {
    const before = publishingCalls().length;
    const textOnly = await publishAs(await newPost("Words alone, as a story."), "story");
    expect(textOnly.status).toBe(422);
    expect(textOnly.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "instagram", rule: "media_required", limit: 1, actual: 0 },
    });
    expect(textOnly.body.error.message).toMatch(/story/);
    // A placement that is not one of the two is a 400 naming it.
    const unknown = await call(`/api/posts/${await newPost("Somewhere else.", 1)}/publications`, {
      method: "POST",
      json: { channelId, placement: "reel" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("placement");
    expect(publishingCalls().length).toBe(before);
  });

  it("refuses rule violations before sending: text only, one image of a carousel, 2,201 characters, 11 images", async () => {
    const before = publishingCalls().length;
    const textOnly = await publish(await newPost("Words alone."));
    expect(textOnly.status).toBe(422);
    expect(textOnly.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "instagram", rule: "media_required", limit: 1, actual: 0 },
    });
    const halfCarousel = await publish(await newPost("A carousel of one.", 2, {}, 1));
    expect(halfCarousel.status).toBe(422);
    expect(halfCarousel.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "instagram", rule: "media_count", limit: 2, actual: 1 },
    });
    // Written for LinkedIn (3,000), so only publishing to Instagram breaks the limit.
    const long = await publish(await newPost("x".repeat(2201), 1, {}, 1, "linkedin"));
    expect(long.status).toBe(422);
    expect(long.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "instagram", rule: "caption_length", limit: 2200, actual: 2201 },
    });
    // A media plan cannot hold 11 items at all.
    const postId = await newPost("Eleven?", 1);
    const eleven = await call(`/api/posts/${postId}`, {
      method: "PATCH",
      json: {
        mediaPlan: {
          format: "carousel",
          items: Array.from({ length: 11 }, () => ({
            type: "image",
            aspectRatio: "1:1",
            description: "A roast",
            altText: "A roast",
          })),
        },
      },
    });
    expect(eleven.status).toBe(400);
    // Nothing reached Instagram.
    expect(publishingCalls().slice(before)).toEqual([]);
  });

  it("checks the rules again when it runs: a post edited to text only fails before sending", async () => {
    const before = instagram.posts.length;
    instagram.behavior.pollsUntilFinished = 1;
    const postId = await newPost("Soon without its picture.", 1);
    const created = await call(`/api/posts/${postId}/publications`, {
      method: "POST",
      json: { channelId, publishAt: new Date(Date.now() + 3000).toISOString() },
    });
    expect(created.status, created.text).toBe(202);
    const edited = await call(`/api/posts/${postId}`, {
      method: "PATCH",
      json: { mediaPlan: { format: "text_only", items: [] } },
    });
    expect(edited.status, edited.text).toBe(200);
    const done = await settled(created.body.publicationId);
    expect(done.status).toBe("failed");
    expect(done.error).toMatchObject({ code: "publish_rule_violation" });
    expect(instagram.posts).toHaveLength(before);
  });

  it("a container that ends ERROR fails the publication with Instagram's message, posting nothing", async () => {
    const before = instagram.posts.length;
    instagram.behavior.failNextContainer = "The aspect ratio is not supported.";
    const created = await publish(await newPost("This picture will not do.", 1));
    const done = await settled(created.body.publicationId);
    expect(done.status).toBe("failed");
    expect(done.error).toMatchObject({ code: "publish_rule_violation", retryable: false });
    expect(done.error.message).toMatch(/The aspect ratio is not supported/);

    // Media Instagram cannot fetch ends the same way.
    const missing = await publish(
      await newPost("A video that is not there.", 0, { videoUrl: `${instagram.url}/missing.mp4` }),
    );
    const gone = await settled(missing.body.publicationId);
    expect(gone.status).toBe("failed");
    expect(gone.error.message).toMatch(/Media download has failed/);
    expect(instagram.posts).toHaveLength(before);
  });

  it("retries a 429 after Retry-After and a 5xx with backoff on media_publish, posting exactly once", async () => {
    const before = instagram.posts.length;
    instagram.behavior.rateLimit = { count: 1, retryAfterSeconds: 1 };
    instagram.behavior.serverError = { count: 1, status: 500 };
    const containersBefore = containersMade();
    const counted = async () =>
      Promise.all(["ok", "rate_limited", "server_error"].map((outcome) => instagramCalls(outcome)));
    const [okBefore, limitedBefore, failedBefore] = await counted();
    const created = await publish(await newPost("Retried until it went through.", 1));
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(done.attempts).toBe(3);
    expect(instagram.posts).toHaveLength(before + 1);
    // Each retry published the container the first try made (its status said FINISHED): one container.
    expect(containersMade() - containersBefore).toBe(1);
    // Every call is counted like HeyGen's: the 429 and the 500, and the calls that went through.
    const [ok, limited, failed] = await counted();
    expect([limited - limitedBefore, failed - failedBefore]).toEqual([1, 1]);
    expect(ok - okBefore).toBeGreaterThanOrEqual(3); // the container, its status, media_publish at least
  });

  it("answers rate_limited with the reset time once 50 posts were made in 24 hours", async () => {
    const before = instagram.posts.length;
    instagram.behavior.priorPosts = 50 - instagram.posts.length;
    try {
      const created = await publish(await newPost("One too many today.", 1));
      const done = await settled(created.body.publicationId);
      expect(done.status).toBe("failed");
      expect(done.error).toMatchObject({ code: "rate_limited", retryable: true });
      const reset = /after (\S+)\.$/.exec(done.error.message)?.[1] as string;
      expect(done.error.message).toMatch(/allows 50 posts through the API in 24 hours/);
      // The oldest post this server made in the window leaves it first, within the next 24 hours.
      const resetAt = Date.parse(reset);
      expect(resetAt).toBeGreaterThan(Date.now() + 23 * 3600_000);
      expect(resetAt).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
      expect(instagram.posts).toHaveLength(before);
    } finally {
      instagram.behavior.priorPosts = 0;
    }
  });

  it("refreshes a long-lived token close to its expiry before it publishes", async () => {
    instagram.behavior.tokenLifetimeSeconds = 3 * 24 * 3600;
    await connect();
    instagram.behavior.tokenLifetimeSeconds = 5_184_000;
    const refreshes = () => instagram.grants.filter((grant) => grant.grantType === "ig_refresh_token").length;
    const before = refreshes();
    const created = await publish(await newPost("Published with a refreshed token.", 1));
    expect((await settled(created.body.publicationId)).status).toBe("published");
    expect(refreshes()).toBe(before + 1);
    const again = await publish(await newPost("And again, no refresh needed.", 1));
    expect((await settled(again.body.publicationId)).status).toBe("published");
    expect(refreshes()).toBe(before + 1);
  });

  it("never posts twice: one Instagram post per published publication", async () => {
    const list = await call(
      `/api/publications?brandId=${brandId}&from=${new Date(Date.now() - 3600_000).toISOString()}&to=${new Date(Date.now() + 3600_000).toISOString()}`,
    );
    expect(list.status, list.text).toBe(200);
    const published = (
      list.body.items as { status: string; placement: string; externalId: string | null }[]
    ).filter((item) => item.status === "published");
    expect(instagram.posts).toHaveLength(published.length);
    expect(new Set(instagram.posts.map((post) => post.containerId)).size).toBe(instagram.posts.length);
    // Only a story whose media_publish answer was lost has no id (nothing lists stories to find it by).
    const unnamed = published.filter((item) => item.externalId === null);
    expect(unnamed.every((item) => item.placement === "story")).toBe(true);
    const named = published.flatMap((item) => (item.externalId ? [item.externalId] : []));
    const stories = instagram.posts.filter((post) => post.mediaType === "STORY").map((post) => post.id);
    expect(named.length + unnamed.length).toBe(instagram.posts.length);
    for (const id of named) expect(instagram.posts.map((post) => post.id)).toContain(id);
    expect(new Set(named).size).toBe(named.length);
    expect(stories.filter((id) => !named.includes(id))).toHaveLength(unnamed.length);
  });

  it("a 5xx from a media_publish that did post ends published: the container says PUBLISHED, the account's media name the post", async () => {
    const before = instagram.posts.length;
    instagram.behavior.failAfterPublish = { count: 1, status: 502 };
    const created = await publish(await newPost("Posted, though Instagram said otherwise.", 1));
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(done.attempts).toBe(1);
    expect(instagram.posts).toHaveLength(before + 1);
    const post = instagram.posts[before];
    expect(post.caption).toContain("Posted, though Instagram said otherwise.");
    expect(done.externalId).toBe(post.id);
    expect(done.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]{11}\/$/);
    expect(instagram.calls.some((c) => /^GET .*\/media$/.test(c))).toBe(true);
    // Nothing is sent again: one post, and it stays one.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(instagram.posts).toHaveLength(before + 1);
  });

  it("a media_publish whose answer never comes is tried again with the same container, which still says FINISHED", async () => {
    const before = instagram.posts.length;
    const containersBefore = containersMade();
    instagram.behavior.dropPublish = 1;
    const created = await publish(await newPost("Lost on the way, then posted once.", 1));
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(done.attempts).toBe(2);
    expect(instagram.posts).toHaveLength(before + 1);
    expect(done.externalId).toBe(instagram.posts[before].id);
    expect(containersMade() - containersBefore).toBe(1);
  });

  it("keeps the tokens unreadable at rest (a database dump, or the embedded database's files)", () => {
    expectNoSecretAtRest(server, instagram.issuedTokens(), "Acme Roasters");
  });

  it("a revoked token (code 190) ends failed channel_reauth_required, and the connection shows reconnect", async () => {
    const before = instagram.posts.length;
    // Revoked as the post goes out: revoked earlier, the results collector's next read could mark the
    // connection first, and the publish would be refused up front (checked below) instead of failing its run.
    instagram.behavior.revokeOnNextPost = true;
    const created = await publish(await newPost("Nobody will see this one.", 1));
    expect(created.status, created.text).toBe(202);
    const done = await settled(created.body.publicationId);
    expect(done.status).toBe("failed");
    expect(done.error).toMatchObject({ code: "channel_reauth_required", retryable: false });
    expect(done.error.message).toMatch(/Error validating access token/);
    expect(instagram.posts).toHaveLength(before);
    const [connection] = await channels();
    expect(connection).toMatchObject({ status: "needs_reconnect" });
    const refused = await publish(await newPost("Refused up front now.", 1));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("channel_reauth_required");
    await connect();
    expect((await channels())[0]).toMatchObject({ status: "active" });
    for (const issued of instagram.issuedTokens()) expect(server.logs()).not.toContain(issued);
  });
});
