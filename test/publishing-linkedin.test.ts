import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signOAuthState } from "@/lib/publishing/oauth-state";
import { newUser } from "./support/auth";
import { expectAvatarAfterExpiry, expectKeptAvatar } from "./support/channel-avatar";
import { startFakeHeygen } from "./support/fake-heygen";
import { type FakeLinkedIn, plainCommentary, startFakeLinkedIn } from "./support/fake-linkedin";
import { api } from "./support/http";
import { makeImage } from "./support/images";
import { authorizeOAuth, followOAuthCallback } from "./support/oauth-consent";
import { providerCalls } from "./support/prometheus";
import { newImagePost, settledPublication } from "./support/publication-api";
import { expectNoSecretAtRest } from "./support/secrets-at-rest";
import { startTestServer, type TestServer } from "./support/test-server";
import { finishedVideo } from "./support/video-api";
import { waitFor } from "./support/video-media";

// LinkedIn through OAuth and publishing, against the real server and a fake LinkedIn that speaks the
// documented OAuth, userinfo, images and posts APIs and records every post made.

const metricsToken = `metrics-${randomBytes(12).toString("hex")}`;

let linkedin: FakeLinkedIn;
/** Avatar videos go to a fake HeyGen, whose videos last 2 s (regular ones are rendered here). */
let heygen: Awaited<ReturnType<typeof startFakeHeygen>>;
let server: TestServer;
let token: string;
let userId: string;
let brandId: string;
let channelId: string;

const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
  api(p, { server: server.url, token, ...init });

const authorize = (choice: "allow" | "cancel" = "allow", as = token, brand = brandId) =>
  authorizeOAuth("linkedin", { server: server.url, token: as, brandId: brand }, choice);

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

const newPost = (
  caption: string,
  images = 0,
  extra: Record<string, unknown> = {},
  channel: "linkedin" | "telegram" = "linkedin",
) => newImagePost(call, { brandId, channel, caption, images, extra });

async function publish(postId: string) {
  return call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId } });
}

const settled = (publicationId: string) => settledPublication(call, publicationId, 30_000);

beforeAll(async () => {
  linkedin = await startFakeLinkedIn();
  heygen = await startFakeHeygen();
  server = await startTestServer({
    env: {
      VIDEO_PROVIDER: "heygen",
      HEYGEN_API_KEY: heygen.apiKey,
      HEYGEN_BASE_URL: heygen.url,
      HEYGEN_UPLOAD_BASE_URL: heygen.url,
      PROVIDER_POLL_INTERVAL_MS: "200",
      LINKEDIN_CLIENT_ID: linkedin.clientId,
      LINKEDIN_CLIENT_SECRET: linkedin.clientSecret,
      LINKEDIN_AUTH_BASE_URL: linkedin.url,
      LINKEDIN_API_BASE_URL: linkedin.url,
      PUBLISH_SWEEP_INTERVAL_SECONDS: "2",
      PUBLISH_TIMEOUT_MS: "4000",
      METRICS_TOKEN: metricsToken,
    },
  });
  ({ token, userId } = await newUser(server.url));
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "LinkedIn Brand", tone: "warm and direct", voice: "short sentences" },
  });
  brandId = brand.body.brandId;
});

afterAll(async () => {
  await server?.stop();
  await linkedin?.close();
  await heygen?.close();
});

describe("connecting LinkedIn through OAuth", () => {
  it("start redirects to LinkedIn's authorize page with a signed state; Allow connects the member", async () => {
    const { authorizeUrl, callback: back } = await authorize();
    expect(authorizeUrl.origin).toBe(linkedin.url);
    expect(authorizeUrl.pathname).toBe("/oauth/v2/authorization");
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: "code",
      client_id: linkedin.clientId,
      redirect_uri: `${server.url}/api/channels/oauth/linkedin/callback`,
      scope: "openid profile w_member_social",
    });
    expect(authorizeUrl.searchParams.get("state")).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(back.searchParams.get("state")).toBe(authorizeUrl.searchParams.get("state"));

    const done = await callback(back);
    expect(done.status, done.text).toBe(303);
    expect(done.headers.get("location")).toMatch(new RegExp(`^/brands/${brandId}\\?connected=chn_`));
    // Only the member: the fake's member administers a company page, but LINKEDIN_ORGANIZATIONS is off.
    const list = await channels();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      channel: "linkedin",
      accountName: "Ada Marketer",
      status: "active",
    });
    await expectKeptAvatar(server.url, list[0].avatarUrl, `${linkedin.url}/avatar.png`);
    channelId = list[0].channelId;
    expect(JSON.stringify(list)).not.toMatch(/AQV|AQX/);
    for (const issued of linkedin.issuedTokens()) expect(server.logs()).not.toContain(issued);
    expect(linkedin.grants).toEqual([{ grantType: "authorization_code", status: 200 }]);

    // The same member again replaces the tokens of the same connection.
    await connect();
    expect((await channels()).map((c) => c.channelId)).toEqual([channelId]);
    await expectAvatarAfterExpiry({
      platform: linkedin,
      link: `${linkedin.url}/avatar.png`,
      server,
      reconnect: connect,
      channels,
    });
  });

  it("lets only the brand's owners start it: a stranger gets 404, an editor 403 forbidden, no redirect", async () => {
    const [stranger, editor] = [await newUser(server.url), await newUser(server.url)];
    const invitation = await call(`/api/brands/${brandId}/invitations`, {
      method: "POST",
      json: { email: editor.email, role: "editor" },
    });
    expect(invitation.status, invitation.text).toBe(201);
    const link = (invitation.body.link as string).split("/invite/")[1];
    const accepted = await api(`/api/invitations/${link}/accept`, {
      server: server.url,
      token: editor.token,
      method: "POST",
      json: {},
    });
    expect(accepted.status, accepted.text).toBe(200);
    const start = (as: string) =>
      api(`/api/channels/oauth/linkedin/start?brandId=${brandId}`, {
        server: server.url,
        token: as,
        redirect: "manual",
      });
    const asStranger = await start(stranger.token);
    expect(asStranger.status, asStranger.text).toBe(404);
    expect(asStranger.body.error.code).toBe("not_found");
    const asEditor = await start(editor.token);
    expect(asEditor.status, asEditor.text).toBe(403);
    expect(asEditor.body.error).toMatchObject({ code: "forbidden" });
    expect(asEditor.headers.get("location")).toBeNull();
    // With no credential a GET goes to the brand's page (never to LinkedIn), and the page's POST is 401.
    const anonymous = await api(`/api/channels/oauth/linkedin/start?brandId=${brandId}`, {
      server: server.url,
      redirect: "manual",
    });
    expect(anonymous.status, anonymous.text).toBe(303);
    expect(anonymous.headers.get("location")).toBe(`/brands/${brandId}?connect=linkedin`);
    const anonymousPost = await api("/api/channels/oauth/linkedin/start", {
      server: server.url,
      method: "POST",
      json: { brandId },
    });
    expect(anonymousPost.status, anonymousPost.text).toBe(401);
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
    expect(altered.body.error.message).toMatch(/Start connecting again/);

    const garbage = await callback(withState("not-a-state"));
    expect(garbage.body.error).toMatchObject({
      code: "oauth_state_invalid",
      details: { reason: "malformed" },
    });

    const old = signOAuthState(
      server.authSecret,
      { userId, brandId, channel: "linkedin" },
      Math.floor(Date.now() / 1000) - 700,
    );
    const expired = await callback(withState(old));
    expect(expired.status).toBe(400);
    expect(expired.body.error).toMatchObject({ code: "oauth_state_invalid", details: { reason: "expired" } });
    expect(expired.body.error.message).toMatch(/older than 10 minutes/);

    const other = await newUser(server.url);
    const foreign = await callback(back, other.token);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: "oauth_state_invalid", details: { reason: "foreign" } });

    const anonymous = await fetch(`${server.url}${back.pathname}${back.search}`, { redirect: "manual" });
    expect(anonymous.status).toBe(401);

    const { callback: declined } = await authorize("cancel");
    const cancel = await callback(declined);
    expect(cancel.status).toBe(422);
    expect(cancel.body.error).toMatchObject({
      code: "channel_check_failed",
      details: { check: "oauth", platformMessage: "The user cancelled the authorization" },
    });

    // A stranger may not start one for this brand; an unknown platform is 404.
    const stranger = await fetch(`${server.url}/api/channels/oauth/linkedin/start?brandId=${brandId}`, {
      headers: { authorization: `Bearer ${other.token}` },
      redirect: "manual",
    });
    expect(stranger.status).toBe(404);
    const unknown = await call(`/api/channels/oauth/myspace/start?brandId=${brandId}`, {
      redirect: "manual",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");

    // Nothing of the refused attempts was connected.
    expect(await channels()).toHaveLength(1);
  });
});

describe("publishing to LinkedIn", () => {
  it("publishes text with an image: the image uploaded, then one post with the URN and its permalink", async () => {
    const before = linkedin.posts.length;
    const caption = "Autumn blend (limited) arrives next week #coffee — say hi @ the counter!";
    const postId = await newPost(caption, 1);
    const created = await publish(postId);
    expect(created.status, created.text).toBe(202);
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(linkedin.posts).toHaveLength(before + 1);
    const sent = linkedin.posts.at(-1);
    expect(done.externalId).toBe(sent?.urn);
    expect(sent?.author).toBe(`urn:li:person:${linkedin.member.sub}`);
    expect(done.permalink).toBe(`https://www.linkedin.com/feed/update/${sent?.urn}/`);
    expect(plainCommentary(sent?.commentary ?? "")).toBe(caption);
    expect(sent?.commentary).toContain("{hashtag|\\#|coffee}");
    expect(sent?.commentary).toContain("\\(limited\\)");
    expect(sent?.headers).toEqual({ version: expect.stringMatching(/^\d{6}$/), restli: "2.0.0" });
    expect(sent?.images).toHaveLength(1);
    expect(sent?.images[0].contentType).toMatch(/^image\/(jpeg|png)$/);
    expect(sent?.images[0].altText).toBe("Roast, picture 1");
    expect(sent?.images[0].bytes).toBeGreaterThan(1000);
    expect((await call(`/api/posts/${postId}`)).body.status).toBe("published");
  });

  it("sends several images as one multi-image post", async () => {
    const before = linkedin.posts.length;
    const created = await publish(await newPost("Three roasts, one week.", 3));
    expect((await settled(created.body.publicationId)).status).toBe("published");
    expect(linkedin.posts).toHaveLength(before + 1);
    expect(linkedin.posts.at(-1)?.images.map((image) => image.altText)).toEqual([
      "Roast, picture 1",
      "Roast, picture 2",
      "Roast, picture 3",
    ]);
  });

  it("refuses rule violations before sending: 3,000 characters, a linked video, a video too large or too small", async () => {
    const before = linkedin.posts.length;
    const videosBefore = linkedin.videos.size;
    // Written for Telegram (4,096 without media), so only publishing to LinkedIn breaks the limit.
    const long = await publish(await newPost("x".repeat(3001), 0, {}, "telegram"));
    expect(long.status).toBe(422);
    expect(long.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "linkedin", rule: "caption_length", limit: 3000, actual: 3001 },
    });
    const video = await publish(
      await newPost("A short clip of the roast.", 0, { videoUrl: "https://cdn.example.com/roast.mp4" }),
    );
    // LinkedIn takes a video only as an upload: a link to another site cannot be sent.
    expect(video.status).toBe(422);
    expect(video.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "linkedin", rule: "media_unsupported" },
    });
    expect(video.body.error.message).toMatch(/only as an upload/);

    // Files in the media store (the server's local store under DATA_DIR): one a byte over LinkedIn's 500 MB
    // (sparse, so it costs no disk), one under its 75 KB. Under the brand's folder: a post may name only
    // its own brand's files (issue 39).
    const stored = (name: string, size: number) => {
      const file = path.join(server.dataDir, "media", "brands", brandId, "clips", name, "video.mp4");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const handle = fs.openSync(file, "w");
      fs.ftruncateSync(handle, size);
      fs.closeSync(handle);
      return `/media/brands/${brandId}/clips/${name}/video.mp4`;
    };
    const tooLarge = await publish(
      await newPost("Our whole roasting day, uncut.", 0, {
        videoUrl: stored("vjb_linkedinTooLarge", 500 * 1024 * 1024 + 1),
      }),
    );
    expect(tooLarge.status, tooLarge.text).toBe(422);
    expect(tooLarge.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: {
        channel: "linkedin",
        rule: "media_size",
        limit: 500 * 1024 * 1024,
        actual: 500 * 1024 * 1024 + 1,
        withMedia: true,
      },
    });
    expect(tooLarge.body.error.message).toMatch(/at most 500 MB/);
    const tooSmall = await publish(
      await newPost("A blink of the roast.", 0, { videoUrl: stored("vjb_linkedinTooSmall", 10_000) }),
    );
    expect(tooSmall.status, tooSmall.text).toBe(422);
    expect(tooSmall.body.error.details).toMatchObject({
      rule: "media_size",
      limit: 75 * 1024,
      actual: 10_000,
    });
    const missing = await publish(
      await newPost("A clip that is gone.", 0, { videoUrl: `/media/brands/${brandId}/clips/gone/video.mp4` }),
    );
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.error.details).toMatchObject({ rule: "media_unsupported" });

    // Nothing reached LinkedIn: no post, no video upload started.
    expect(linkedin.posts).toHaveLength(before);
    expect(linkedin.videos.size).toBe(videosBefore);
  });

  it("retries a 429 after Retry-After, posting exactly once", async () => {
    const before = linkedin.posts.length;
    linkedin.behavior.rateLimit = { count: 1, retryAfterSeconds: 1 };
    const created = await publish(await newPost("Retried until it went through.", 1));
    const done = await settled(created.body.publicationId);
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(done.attempts).toBe(2);
    expect(linkedin.posts).toHaveLength(before + 1);
  });

  it("a 502 after /rest/posts made the post: the author's recent posts show it, published with its URN, sent once", async () => {
    const before = linkedin.posts.length;
    linkedin.behavior.recordThenFail = { count: 1, status: 502 };
    const made = await publish(await newPost("Posted, then the gateway said 502. #roast"));
    const done = await settled(made.body.publicationId);
    expect(linkedin.posts).toHaveLength(before + 1);
    const sent = linkedin.posts.at(-1);
    expect(done, JSON.stringify(done)).toMatchObject({
      status: "published",
      attempts: 1,
      externalId: sent?.urn,
      permalink: `https://www.linkedin.com/feed/update/${sent?.urn}/`,
    });
  });

  it("a 5xx after /rest/posts that LinkedIn cannot settle is publish_outcome_unknown, never a blind retry", async () => {
    const before = linkedin.posts.length;
    // Made, then 502, and the author finder fails too: no one can tell.
    linkedin.behavior.recordThenFail = { count: 1, status: 502 };
    linkedin.behavior.finderError = { count: 1, status: 503 };
    const made = await publish(await newPost("Posted, then 502, and LinkedIn cannot be asked."));
    const unknown = await settled(made.body.publicationId);
    expect(unknown).toMatchObject({
      status: "failed",
      attempts: 1,
      error: { code: "publish_outcome_unknown", retryable: false },
    });
    expect(linkedin.behavior.finderError.count).toBe(0);
    expect(linkedin.posts).toHaveLength(before + 1);

    // A 503 from LinkedIn itself: the finder answers and the post is not there; still unknown, not re-sent.
    linkedin.behavior.serverError = { count: 1, status: 503 };
    const refused = await publish(await newPost("A 503 from LinkedIn itself."));
    expect((await settled(refused.body.publicationId)).error?.code).toBe("publish_outcome_unknown");
    expect(linkedin.posts).toHaveLength(before + 1);
  });

  it("refreshes an access token that is about to expire before it publishes", async () => {
    linkedin.behavior.tokenLifetimeSeconds = 120;
    await connect();
    linkedin.behavior.tokenLifetimeSeconds = 5_184_000;
    const refreshesBefore = linkedin.grants.filter((grant) => grant.grantType === "refresh_token").length;
    const created = await publish(await newPost("Published with a refreshed token."));
    expect((await settled(created.body.publicationId)).status).toBe("published");
    expect(linkedin.grants.filter((grant) => grant.grantType === "refresh_token")).toHaveLength(
      refreshesBefore + 1,
    );
    // The refreshed token was saved: the next one needs no refresh.
    const again = await publish(await newPost("And again, no refresh needed."));
    expect((await settled(again.body.publicationId)).status).toBe("published");
    expect(linkedin.grants.filter((grant) => grant.grantType === "refresh_token")).toHaveLength(
      refreshesBefore + 1,
    );
  });

  describe("with a video (the Videos API)", () => {
    let videoUrl = "";
    let source: Buffer;
    let poster: Buffer;

    beforeAll(async () => {
      const job = await finishedVideo(call, brandId, { timeoutMs: 150_000 });
      videoUrl = job.videoUrl;
      expect(job.durationSeconds).toBeGreaterThanOrEqual(3);
      // The media store's bytes, through the signed URLs the job answered.
      const file = await fetch(`${server.url}${videoUrl}`);
      expect(file.status).toBe(200);
      source = Buffer.from(await file.arrayBuffer());
      expect(source.length).toBeGreaterThan(75 * 1024);
      const posterFile = await fetch(`${server.url}${job.thumbnailUrl}`);
      expect(posterFile.status).toBe(200);
      poster = Buffer.from(await posterFile.arrayBuffer());
    }, 180_000);

    afterEach(() => {
      Object.assign(linkedin.behavior, {
        videoPartBytes: 4 * 1024 * 1024,
        videoPartError: { count: 0, status: 500 },
        videoProcessing: { reads: 1, fail: null },
      });
    });

    /** Parts small enough that the test video is uploaded in 4 of them. */
    const smallParts = () => {
      linkedin.behavior.videoPartBytes = Math.ceil(source.length / 4);
    };
    const newVideo = (urnsBefore: Set<string>) => {
      const added = [...linkedin.videos.values()].filter((video) => !urnsBefore.has(video.urn));
      expect(added).toHaveLength(1);
      return added[0];
    };

    it("uploads the video in parts and posts it as a video post: same bytes, the URN in content.media", async () => {
      smallParts();
      linkedin.behavior.videoProcessing = { reads: 2, fail: null };
      const before = linkedin.posts.length;
      const urnsBefore = new Set(linkedin.videos.keys());
      // The post has a media-plan image too: a LinkedIn post carries one video or images, and the video wins.
      const caption = "Watch how we roast (every morning) #coffee";
      const postId = await newPost(caption, 1, { videoUrl });
      const created = await publish(postId);
      expect(created.status, created.text).toBe(202);
      const done = await settled(created.body.publicationId);
      expect(done.status, JSON.stringify(done)).toBe("published");
      expect(done.attempts).toBe(1);

      const video = newVideo(urnsBefore);
      expect(video.parts.length).toBeGreaterThanOrEqual(3);
      expect(video.status).toBe("AVAILABLE");
      expect(video.fileSizeBytes).toBe(source.length);
      expect(video.assembled?.equals(source)).toBe(true);
      // The job's poster is the video's thumbnail, not a frame LinkedIn picks.
      expect(video.thumbnail?.contentType).toBe("image/jpeg");
      expect(video.thumbnail?.bytes?.equals(poster)).toBe(true);

      expect(linkedin.posts).toHaveLength(before + 1);
      const sent = linkedin.posts.at(-1);
      expect(sent?.video).toEqual({
        urn: video.urn,
        title: "Our autumn seasonal blend arrives in every café next week",
        bytes: source.length,
      });
      expect(sent?.images).toEqual([]);
      expect(plainCommentary(sent?.commentary ?? "")).toBe(caption);
      expect(sent?.headers).toEqual({ version: expect.stringMatching(/^\d{6}$/), restli: "2.0.0" });
      expect(done.externalId).toBe(sent?.urn);
      expect(done.permalink).toBe(`https://www.linkedin.com/feed/update/${sent?.urn}/`);

      // Upload URLs are signed: their signatures are in no log line.
      for (const part of video.parts) expect(server.logs()).not.toContain(part.sig);
      expect(server.logs()).not.toContain(video.thumbnail?.sig);
    }, 60_000);

    it("refuses a video shorter than LinkedIn's 3 seconds, by the length its job recorded", async () => {
      // An avatar video needs the brand's avatar at HeyGen first.
      const form = new FormData();
      const photo = new Uint8Array(await makeImage({ format: "jpeg" }));
      form.append("file", new Blob([photo], { type: "image/jpeg" }), "me.jpg");
      expect((await call(`/api/brands/${brandId}/avatar`, { method: "POST", body: form })).status).toBe(202);
      await waitFor(async () => (await call(`/api/brands/${brandId}`)).body.avatarStatus === "ready", {
        what: "the avatar to reach HeyGen",
      });
      const short = await finishedVideo(call, brandId, { mode: "avatar", timeoutMs: 60_000 });
      expect(short.durationSeconds).toBe(2);
      const before = linkedin.posts.length;
      const videosBefore = linkedin.videos.size;
      const refused = await publish(await newPost("Two seconds of roast.", 0, { videoUrl: short.videoUrl }));
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: "publish_rule_violation",
        details: { channel: "linkedin", rule: "media_duration", limit: 3, actual: 2, withMedia: true },
      });
      expect(refused.body.error.message).toMatch(/lasts 2 s; LinkedIn takes videos of at least 3 seconds/);
      expect(linkedin.posts).toHaveLength(before);
      expect(linkedin.videos.size).toBe(videosBefore);
    }, 90_000);

    const linkedinCalls = (outcome: string) => providerCalls(server.url, metricsToken, "linkedin", outcome);

    it("retries a failed part PUT in place and still posts once", async () => {
      smallParts();
      const [okBefore, failedBefore] = [await linkedinCalls("ok"), await linkedinCalls("server_error")];
      linkedin.behavior.videoPartError = { count: 1, status: 500 };
      const before = linkedin.posts.length;
      const urnsBefore = new Set(linkedin.videos.keys());
      const putsBefore = linkedin.partPuts.length;
      const created = await publish(await newPost("Retried part, one post.", 0, { videoUrl }));
      const done = await settled(created.body.publicationId);
      expect(done.status, JSON.stringify(done)).toBe("published");
      expect(done.attempts).toBe(1);

      const video = newVideo(urnsBefore);
      const puts = linkedin.partPuts.slice(putsBefore).filter((put) => put.urn === video.urn);
      // The first part failed once, then went through; every part ended 200.
      expect(puts[0]).toEqual({ urn: video.urn, part: 0, status: 500 });
      expect(puts[1]).toEqual({ urn: video.urn, part: 0, status: 200 });
      expect(puts.filter((put) => put.status === 200).map((put) => put.part)).toEqual(
        video.parts.map((_, index) => index),
      );
      expect(video.assembled?.equals(source)).toBe(true);
      expect(linkedin.posts).toHaveLength(before + 1);
      expect(linkedin.posts.at(-1)?.video?.urn).toBe(video.urn);
      // Each call is counted like the other LinkedIn calls: the failed PUT as a server error; initializeUpload,
      // every part, finalizeUpload, at least two status reads (PROCESSING, AVAILABLE) and the post as ok.
      expect(await linkedinCalls("server_error")).toBe(failedBefore + 1);
      expect(await linkedinCalls("ok")).toBeGreaterThanOrEqual(okBefore + video.parts.length + 5);
    }, 60_000);

    it("ends failed with LinkedIn's reason when it cannot process the video, posting nothing", async () => {
      smallParts();
      linkedin.behavior.videoProcessing = { reads: 1, fail: "Video codec is not supported" };
      const before = linkedin.posts.length;
      const urnsBefore = new Set(linkedin.videos.keys());
      const created = await publish(await newPost("This one will not process.", 0, { videoUrl }));
      const done = await settled(created.body.publicationId);
      expect(done.status).toBe("failed");
      expect(done.error).toMatchObject({ code: "publish_rule_violation", retryable: false });
      expect(done.error.message).toMatch(/could not process the video: Video codec is not supported/);
      expect(newVideo(urnsBefore).status).toBe("PROCESSING_FAILED");
      expect(linkedin.posts).toHaveLength(before);
    }, 60_000);
  });

  it("keeps the tokens unreadable at rest (a database dump, or the embedded database's files)", () => {
    expectNoSecretAtRest(server, linkedin.issuedTokens(), "Ada Marketer");
  });

  it("a revoked token ends failed channel_reauth_required, and the connection shows needs_reconnect", async () => {
    const before = linkedin.posts.length;
    // Revoked as the post goes out: revoked earlier, the results collector's next read could mark the
    // connection first, and the publish would be refused up front (checked below) instead of failing its run.
    linkedin.behavior.revokeOnNextPost = true;
    const created = await publish(await newPost("Nobody will see this one."));
    expect(created.status, created.text).toBe(202);
    const done = await settled(created.body.publicationId);
    expect(done.status).toBe("failed");
    expect(done.error).toMatchObject({ code: "channel_reauth_required", retryable: false });
    expect(done.error.message).toMatch(/revoked/);
    expect(linkedin.posts).toHaveLength(before);
    const [connection] = await channels();
    expect(connection).toMatchObject({ status: "needs_reconnect" });
    const refused = await publish(await newPost("Refused up front now."));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("channel_reauth_required");
    // Reconnecting through OAuth makes it active again.
    await connect();
    expect((await channels())[0]).toMatchObject({ status: "active", statusMessage: null });
  });
});
