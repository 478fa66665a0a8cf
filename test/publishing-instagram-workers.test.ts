import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeInstagram, fakeInstagramEnv, startFakeInstagram } from "./support/fake-instagram";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";
import { killWorkersAtRandom, startWorkerProcess, type WorkerProcess } from "./support/video-worker-process";

const onPostgres = Boolean(process.env.DATABASE_URL);
const FINAL = ["published", "failed", "canceled"];
const PUBLICATIONS = 20;

// Instagram's two phases under SIGKILL: a worker dying while it makes containers leaves nothing posted and the
// publication runs again; one dying in media_publish leaves it publish_outcome_unknown, never re-sent.
// Worker processes need PostgreSQL (PGlite is one process); this runs in the PostgreSQL pass.
describe.skipIf(!onPostgres)("Instagram publishing workers killed with SIGKILL", () => {
  let instagram: FakeInstagram;
  let server: TestServer;
  let token: string;
  const workers: WorkerProcess[] = [];
  const instagramEnv = () => ({
    ...fakeInstagramEnv(instagram),
    PUBLISH_SWEEP_INTERVAL_SECONDS: "2",
    PUBLISH_TIMEOUT_MS: "3000",
  });
  async function startWorker() {
    const worker = startWorkerProcess({
      ...instagramEnv(),
      DATABASE_URL: server.databaseUrl,
      DATA_DIR: server.dataDir,
      AUTH_SECRET: server.authSecret,
      // Instagram fetches the media from the web server by signed URL.
      APP_URL: server.url,
    });
    workers.push(worker);
    await waitFor(() => worker.events("worker_ready").length > 0, { what: "the worker to start" });
    return worker;
  }
  const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
    api(p, { server: server.url, token, ...init });

  beforeAll(async () => {
    instagram = await startFakeInstagram();
    server = await startTestServer({ env: { WORKER: "off", ...instagramEnv() } });
    ({ token } = await newUser(server.url));
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await server?.stop();
    await instagram?.close();
  });

  it("leaves 0 duplicate posts and 0 publications stuck after kills at random points in 20 publications", async () => {
    const brand = await call("/api/brands", {
      method: "POST",
      json: { name: "Kill Brand", tone: "warm", voice: "short" },
    });
    const brandId = brand.body.brandId as string;
    // Connect through the consent page's Allow link.
    const start = await fetch(`${server.url}/api/channels/oauth/instagram/start?brandId=${brandId}`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: "manual",
    });
    const page = await (await fetch(start.headers.get("location") as string)).text();
    const href = /id="allow" href="([^"]+)"/.exec(page);
    expect(href, page).not.toBeNull();
    const allow = new URL((href as RegExpExecArray)[1].replaceAll("&amp;", "&"));
    const back = await call(`${allow.pathname}${allow.search}`, { redirect: "manual" });
    expect(back.status, back.text).toBe(303);
    const channelId = (await call(`/api/channels?brandId=${brandId}`)).body.items[0].channelId as string;

    // One post per publication, each with its own caption: a duplicate is one caption posted twice.
    const captions: string[] = [];
    const postIds: string[] = [];
    const publicationIds: string[] = [];
    for (let i = 0; i < PUBLICATIONS; i++) {
      const created = await call("/api/content/create", {
        method: "POST",
        json: {
          brandId,
          channel: "instagram",
          goal: "announcement",
          topic: "Our autumn blend arrives next week",
        },
      });
      expect(created.status, created.text).toBe(201);
      const postId = created.body.postId as string;
      const caption = `Kill test post ${i}`;
      const patched = await call(`/api/posts/${postId}`, {
        method: "PATCH",
        json: {
          caption,
          hashtags: [],
          mediaPlan: {
            format: "single_image",
            items: [{ type: "image", aspectRatio: "1:1", description: "The roast", altText: "The roast" }],
          },
        },
      });
      expect(patched.status, patched.text).toBe(200);
      const drawn = await call(`/api/posts/${postId}/media/0/image/generate`, { method: "POST" });
      expect(drawn.status, drawn.text).toBe(200);
      captions.push(caption);
      postIds.push(postId);
    }
    // Each media_publish is recorded at once and answered 500 ms later: kills land before, during and after.
    instagram.behavior.publishLatencyMs = 500;
    const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
    try {
      for (const id of postIds) {
        const response = await call(`/api/posts/${id}/publications`, { method: "POST", json: { channelId } });
        expect(response.status, response.text).toBe(202);
        publicationIds.push(response.body.publicationId);
      }

      const kills = await killWorkersAtRandom(startWorker, { rounds: 4, minMs: 500, spreadMs: 2500 });
      expect(kills).toBe(4);
      instagram.behavior.publishLatencyMs = 0;
      await startWorker();

      const rows = await waitFor(
        async () => {
          const current = await sql<
            { id: string; status: string; error_code: string | null; caption: string }[]
          >`
            select p.id, p.status, p.error_code, s.caption from publications p join posts s on s.id = p.post_id
            where p.id in ${sql(publicationIds)}`;
          return current.every((row) => FINAL.includes(row.status)) ? current : null;
        },
        { timeoutMs: 150_000, what: "every publication to reach a final state" },
      );
      expect(rows).toHaveLength(PUBLICATIONS);
      const perCaption = (caption: string) =>
        instagram.posts.filter((post) => post.caption === caption).length;
      // 0 duplicates: no caption was posted twice.
      expect(Math.max(...captions.map(perCaption))).toBeLessThanOrEqual(1);
      for (const row of rows) {
        if (row.status === "published") expect(perCaption(row.caption), row.id).toBe(1);
        else expect(row).toMatchObject({ status: "failed", error_code: "publish_outcome_unknown" });
      }
      const published = rows.filter((row) => row.status === "published").length;
      console.log(
        `instagram kill test: ${kills} kills, ${published} published, ${PUBLICATIONS - published} outcome unknown`,
      );
      expect(published).toBeGreaterThan(0);
      const [{ stuck }] = await sql<{ stuck: number }[]>`
        select count(*)::int as stuck from publications where status in ('scheduled', 'publishing')`;
      expect(stuck).toBe(0);
    } finally {
      await sql.end();
    }
  }, 300_000);
});
