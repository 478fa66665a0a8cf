import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeInstagram, fakeInstagramEnv, startFakeInstagram } from "./support/fake-instagram";
import { api } from "./support/http";
import { newImagePost } from "./support/publication-api";
import { startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";
import { killWorkersAtRandom, startWorkerProcess, type WorkerProcess } from "./support/video-worker-process";

const onPostgres = Boolean(process.env.DATABASE_URL);
const FINAL = ["published", "failed", "canceled"];
const PUBLICATIONS = 20;

// Instagram's two phases under SIGKILL: a worker dying while it makes containers leaves nothing posted and the
// publication runs again; one dying in media_publish leaves a container whose status says how it ended, so the
// sweep saves the post it made, or publishes that same container again (Instagram posts a container once).
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
  let brandId: string;
  let channelId: string;
  /** A post with one generated image and this caption (no hashtags): a duplicate is one caption posted twice. */
  const newPost = (caption: string) =>
    newImagePost(call, { brandId, channel: "instagram", caption, images: 1 });

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
    brandId = brand.body.brandId as string;
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
    channelId = (await call(`/api/channels?brandId=${brandId}`)).body.items[0].channelId as string;

    const captions: string[] = [];
    const postIds: string[] = [];
    const publicationIds: string[] = [];
    for (let i = 0; i < PUBLICATIONS; i++) {
      captions.push(`Kill test post ${i}`);
      postIds.push(await newPost(captions[i]));
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
            {
              id: string;
              status: string;
              error_code: string | null;
              external_id: string | null;
              caption: string;
            }[]
          >`
            select p.id, p.status, p.error_code, p.external_id, s.caption
            from publications p join posts s on s.id = p.post_id
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
      // Every publication is published, each post once, and its id is the post Instagram made, also for
      // one whose worker died before it saved media_publish's answer.
      const settledFrom = workers.flatMap((worker) => worker.events("publication_call_not_made"));
      console.log(
        `instagram kill test: ${kills} kills, ${rows.filter((row) => row.status === "published").length} published, ${settledFrom.length} calls found not made and published again`,
      );
      for (const row of rows) {
        expect(row, JSON.stringify(row)).toMatchObject({ status: "published", error_code: null });
        const made = instagram.posts.filter((post) => post.caption === row.caption);
        expect(made, row.id).toHaveLength(1);
        expect(row.external_id).toBe(made[0].id);
      }
      const [{ stuck }] = await sql<{ stuck: number }[]>`
        select count(*)::int as stuck from publications where status in ('scheduled', 'publishing')`;
      expect(stuck).toBe(0);
    } finally {
      await sql.end();
    }
  }, 300_000);

  it("a worker killed while its media_publish is lost on the way: the container says FINISHED, so the sweep queues it again and that same container is posted once", async () => {
    const live = workers.filter(
      (worker) => worker.child.exitCode === null && worker.child.signalCode === null,
    );
    expect(live).toHaveLength(1);
    const postsBefore = instagram.posts.length;
    const containersBefore = instagram.calls.filter((c) => /^POST .*\/media$/.test(c)).length;
    const publishesBefore = instagram.calls.filter((c) => c.endsWith("/media_publish")).length;
    instagram.behavior.dropPublish = 1;
    const postId = await newPost("Lost on the way, then posted once");
    const created = await call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId } });
    expect(created.status, created.text).toBe(202);
    // Killed as soon as its media_publish has left (and before its own 3 s timeout would settle it).
    await waitFor(
      () => instagram.calls.filter((c) => c.endsWith("/media_publish")).length > publishesBefore,
      {
        timeoutMs: 30_000,
        what: "the worker to send media_publish",
      },
    );
    live[0].child.kill("SIGKILL");
    await live[0].exited;
    const next = await startWorker();
    const done = await waitFor(
      async () => {
        const answer = await call(`/api/publications/${created.body.publicationId}`);
        return FINAL.includes(answer.body.status) ? answer.body : null;
      },
      { timeoutMs: 60_000, what: "the publication to be settled" },
    );
    expect(done, JSON.stringify(done)).toMatchObject({ status: "published", attempts: 2 });
    expect(next.events("publication_call_not_made")).toEqual([
      expect.objectContaining({ publicationId: created.body.publicationId }),
    ]);
    expect(instagram.posts).toHaveLength(postsBefore + 1);
    expect(done.externalId).toBe(instagram.posts[postsBefore].id);
    // One container: the second try published the one the killed worker had sent.
    expect(instagram.calls.filter((c) => /^POST .*\/media$/.test(c)).length - containersBefore).toBe(1);
    expect(instagram.calls.filter((c) => c.endsWith("/media_publish")).length - publishesBefore).toBe(2);
  }, 120_000);
});
