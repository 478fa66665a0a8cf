import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { type S3Server, startS3Server } from "./support/s3-server";
import { startTestServer, type TestServer } from "./support/test-server";
import { finishedVideo } from "./support/video-api";
import { waitFor } from "./support/video-media";

// A post's video taken from one of the brand's own video jobs ("Use in post" sends the job's signed videoUrl)
// outlives that URL: the post keeps the video's key and every read signs a new URL. Run on both media stores,
// against the real server, the real S3-compatible server and the fake Telegram Bot API.

const onPostgres = Boolean(process.env.DATABASE_URL);

/** The same link made unusable the way time does: its expiry (local store) or signing date (S3) in the past. */
function expired(link: string, base: string) {
  const url = new URL(link, base);
  if (url.searchParams.has("exp"))
    url.searchParams.set("exp", String(Math.floor(Date.now() / 1000) - 86_400));
  else url.searchParams.set("X-Amz-Date", "20200101T000000Z");
  // Relative links stay relative, as the API hands them out.
  return link.startsWith("/") ? `${url.pathname}${url.search}` : url.toString();
}

async function fetchVideo(link: string, base: string) {
  const response = await fetch(new URL(link, base));
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

for (const store of ["local", "s3"] as const) {
  describe(`a post's video from the brand's own video job (${store} media store)`, () => {
    let s3: S3Server | undefined;
    let telegram: FakeTelegram;
    let server: TestServer;
    let token: string;
    let brandId: string;
    let videoUrl: string;
    let job: Awaited<ReturnType<typeof finishedVideo>>;
    let original: Buffer;
    const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
      api(p, { server: server.url, token, ...init });

    async function newPost(json: Record<string, unknown>, as = call, brand = brandId) {
      const created = await as("/api/content/create", {
        method: "POST",
        json: {
          brandId: brand,
          channel: "telegram",
          goal: "announcement",
          topic: "Our roasting day, filmed",
        },
      });
      expect(created.status, created.text).toBe(201);
      const patched = await as(`/api/posts/${created.body.postId}`, { method: "PATCH", json });
      expect(patched.status, patched.text).toBe(200);
      return patched.body;
    }

    /** The post as the PATCH answered it, as GET gives it, and as the brand's list gives it. */
    async function everyRead(saved: { postId: string }) {
      return [
        saved,
        (await call(`/api/posts/${saved.postId}`)).body,
        (await call(`/api/posts?brandId=${brandId}`)).body.items.find(
          (item: { postId: string }) => item.postId === saved.postId,
        ),
      ];
    }

    beforeAll(async () => {
      if (store === "s3") s3 = await startS3Server();
      telegram = await startFakeTelegram();
      server = await startTestServer({
        env: { ...s3?.env, TELEGRAM_API_BASE_URL: telegram.url, PUBLISH_TIMEOUT_MS: "4000" },
      });
      ({ token } = await newUser(server.url));
      const brand = await call("/api/brands", {
        method: "POST",
        json: { name: "Roastery", tone: "warm and direct", voice: "short sentences" },
      });
      brandId = brand.body.brandId;
      job = await finishedVideo(call, brandId);
      videoUrl = job.videoUrl;
      const played = await fetchVideo(videoUrl, server.url);
      expect(played.status).toBe(200);
      original = played.bytes;
    }, 180_000);

    afterAll(async () => {
      await server?.stop();
      await telegram?.close();
      await s3?.stop();
    });

    it("keeps it by reference: after its link stops working, every read of the post gives one that plays", async () => {
      const dead = expired(videoUrl, server.url);
      expect((await fetchVideo(dead, server.url)).status).not.toBe(200);

      const saved = await newPost({ videoUrl: dead });
      for (const { videoUrl: link } of await everyRead(saved)) {
        expect(link).not.toBe(dead);
        const played = await fetchVideo(link, server.url);
        expect(played.status, link).toBe(200);
        expect(played.type).toBe("video/mp4");
        expect(played.bytes.equals(original)).toBe(true);
      }
      // The absolute form of the link (a local link as the browser resolved it) is recognised too.
      const absolute = await newPost({ videoUrl: new URL(dead, server.url).toString() });
      expect((await fetchVideo(absolute.videoUrl, server.url)).status).toBe(200);
    });

    it("gives the video's job with it: shape, length, and a poster and captions that load, on every read", async () => {
      expect(job.captionsUrl).toMatch(/^\/media\//);
      if (store === "s3") expect(new URL(job.videoUrl, server.url).origin).not.toBe(server.url);
      const saved = await newPost({ videoUrl: expired(videoUrl, server.url) });
      for (const { videoJob: read } of await everyRead(saved)) {
        expect(read).toMatchObject({
          jobId: job.jobId,
          aspectRatio: job.aspectRatio,
          durationSeconds: job.durationSeconds,
          captions: job.captions,
        });
        const poster = await fetchVideo(read.thumbnailUrl, server.url);
        expect(poster.status, read.thumbnailUrl).toBe(200);
        expect(poster.type).toBe("image/jpeg");
        expect(poster.bytes.equals((await fetchVideo(job.thumbnailUrl, server.url)).bytes)).toBe(true);
        // On this site with either store (a browser loads a <track> only from the page's origin).
        expect(read.captionsUrl).toMatch(/^\/media\/videos\/.+\/captions\.vtt\?exp=\d+&sig=/);
        const captions = await fetchVideo(read.captionsUrl, server.url);
        expect(captions.status, read.captionsUrl).toBe(200);
        expect(captions.bytes.toString("utf8")).toMatch(/^WEBVTT/);
        expect(captions.type).toMatch(/^text\/vtt/);
        expect(captions.bytes.toString("utf8")).toContain(" --> ");
      }
      // A post without a video, or with another site's, has none.
      expect((await newPost({ caption: "No video here." })).videoJob).toBeNull();
      expect((await newPost({ videoUrl: "https://cdn.example.com/clip.mp4" })).videoJob).toBeNull();
      // Taking the video out takes its job out.
      const removed = await call(`/api/posts/${saved.postId}`, { method: "PATCH", json: { videoUrl: null } });
      expect(removed.body.videoJob).toBeNull();
    });

    it("publishes it after its link stopped working: Telegram gets the video itself", async () => {
      const botToken = telegram.addBot("roastery_bot");
      const chatId = telegram.addChannel({ title: "Roastery", admins: [{ token: botToken }] });
      const channel = await call("/api/channels", {
        method: "POST",
        json: { brandId, channel: "telegram", botToken, chatId: String(chatId) },
      });
      expect(channel.status, channel.text).toBe(201);
      const post = await newPost({
        caption: "Watch how we roast.",
        hashtags: [],
        mediaPlan: { format: "text_only", items: [] },
        videoUrl: expired(videoUrl, server.url),
      });
      const created = await call(`/api/posts/${post.postId}/publications`, {
        method: "POST",
        json: { channelId: channel.body.channelId },
      });
      expect(created.status, created.text).toBe(202);
      let last = { status: "" };
      await waitFor(
        async () => {
          last = (await call(`/api/publications/${created.body.publicationId}`)).body;
          return last.status === "published" || last.status === "failed";
        },
        { timeoutMs: 40_000, what: "the publication" },
      );
      expect(last.status, JSON.stringify(last)).toBe("published");
      const sent = telegram.messages.filter((message) => message.chatId === chatId);
      expect(sent).toHaveLength(1);
      expect(sent[0].method).toBe("sendVideo");
      // APP_URL is not public here, so the video is uploaded: the very bytes the job rendered.
      expect(sent[0].video).toEqual({ kind: "upload", bytes: original.length });
    });

    it("refuses another brand's video (400) and keeps another site's link as it was sent", async () => {
      const other = await newUser(server.url);
      const asOther = (p: string, init: Parameters<typeof api>[1] = {}) =>
        api(p, { server: server.url, token: other.token, ...init });
      const brand = await asOther("/api/brands", {
        method: "POST",
        json: { name: "Other Roastery", tone: "calm", voice: "plain words" },
      });
      // Someone else's video is not this brand's to reference (issue 39): refused, by any of its links.
      const created = await asOther("/api/content/create", {
        method: "POST",
        json: {
          brandId: brand.body.brandId,
          channel: "telegram",
          goal: "announcement",
          topic: "Our roasting day, filmed",
        },
      });
      expect(created.status, created.text).toBe(201);
      for (const link of [
        videoUrl,
        expired(videoUrl, server.url),
        new URL(videoUrl, server.url).toString(),
      ]) {
        const foreign = await asOther(`/api/posts/${created.body.postId}`, {
          method: "PATCH",
          json: { videoUrl: link },
        });
        // With the S3 store the link is the bucket's, another site: kept as sent, never read by this server.
        if (store === "s3" && /^https?:/.test(link) && !link.startsWith(server.url)) {
          expect(foreign.status, foreign.text).toBe(200);
          expect(foreign.body.videoJob).toBeNull();
          continue;
        }
        expect(foreign.status, `${link}: ${foreign.text}`).toBe(400);
        expect(foreign.body.error).toMatchObject({
          code: "invalid_request",
          details: [{ path: "videoUrl" }],
        });
      }
      const elsewhere = await newPost({ videoUrl: "https://cdn.example.com/clip.mp4?token=abc" });
      expect(elsewhere.videoUrl).toBe("https://cdn.example.com/clip.mp4?token=abc");
    });

    it.skipIf(!onPostgres || store === "s3")(
      "gives posts saved before this change their video's key (migration 0011)",
      async () => {
        const post = await newPost({ caption: "Saved long ago." });
        const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
        try {
          // What an older version stored: the signed link as the client sent it, long expired.
          const dead = expired(videoUrl, server.url);
          await sql`update posts set video_url = ${dead} where id = ${post.postId}`;
          const migration = fs.readFileSync(
            path.resolve(__dirname, "..", "db", "migrations", "0011_post_video_key.sql"),
            "utf8",
          );
          await sql.unsafe(migration);
          const [row] = await sql`select video_url from posts where id = ${post.postId}`;
          expect(row.video_url).toBe(new URL(videoUrl, server.url).pathname.replace(/^\/media\//, ""));
          const read = (await call(`/api/posts/${post.postId}`)).body.videoUrl;
          expect((await fetchVideo(read, server.url)).status).toBe(200);
          // Run again, it changes nothing.
          await sql.unsafe(migration);
          expect((await sql`select video_url from posts where id = ${post.postId}`)[0].video_url).toBe(
            row.video_url,
          );
        } finally {
          await sql.end();
        }
      },
    );
  });
}
