/**
 * `node --conditions=react-server --import tsx bench/analytics.ts [--pg <url>] [--publications 10000]
 * [--posts 500] [--latency-ms 5] [--requests 200]`: issue 40's goals on PostgreSQL, in this process against a
 * database of its own and the fake Instagram (insights answered after `--latency-ms`):
 * 1. collection: 10,000 published publications spread over 90 days; the scheduler queues only what is due
 *    (all at first, none right after they were pulled, then only those whose turn came two hours later), and
 *    one worker's handler (8 at a time, as the metrics worker runs) pulls them: publications a second;
 * 2. the brand analytics API (get-brand-analytics, in process) for a brand with 500 posts over a year and a
 *    year of daily captures each: p95 of 200 calls, and the PostgreSQL plan of its query.
 * Prints the figures; copy them to bench/notes.md.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

function option(name: string, fallback: string) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

const DAY = 86_400_000;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const base = option("pg", "postgres://postgres@127.0.0.1:5432/postgres");
  const name = `bs_bench_analytics_${randomBytes(4).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const { startFakeInstagram } = await import("../test/support/fake-instagram");
  const instagram = await startFakeInstagram();
  instagram.insights.behavior.latencyMs = Number(option("latency-ms", "5"));
  Object.assign(process.env, {
    DATABASE_URL: url.toString(),
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bs-bench-analytics-")),
    NODE_ENV: "development",
    AUTH_SECRET: "bench-analytics-secret-0123456789abcdef",
    INSTAGRAM_GRAPH_BASE_URL: instagram.url,
    INSTAGRAM_APP_ID: instagram.appId,
    INSTAGRAM_APP_SECRET: instagram.appSecret,
    LOG_LEVEL: "error",
  });
  const { prepareDatabase } = await import("@/lib/server/prepare-database");
  await prepareDatabase({ seed: false });
  const { closeDatabase, getDb } = await import("@/db/client");
  const schema = await import("@/db/schema");
  const { newId } = await import("@/lib/ids");
  const { encryptSecret } = await import("@/lib/security/encrypt-secret");
  const { getQueue, stopQueue } = await import("@/lib/queue/boss");
  const { scheduleMetricPulls } = await import("@/lib/analytics/metrics-worker");
  const { pullPublicationMetrics } = await import("@/lib/analytics/collect-metrics");
  const { brandRowsQuery, getBrandAnalytics } = await import("@/lib/analytics/brand-analytics");
  const db = await getDb();

  // --- 1. collection -------------------------------------------------------------------------------------
  const count = Number(option("publications", "10000"));
  const userId = newId("usr");
  await db.insert(schema.users).values({ id: userId, email: `${userId}@bench.test`, name: "Bench" } as never);
  const brandId = newId("brd");
  await db.insert(schema.brands).values({ id: brandId, name: "Bench brand" });
  await db.insert(schema.brandMembers).values({ brandId, userId, role: "owner" });
  const channelId = newId("chn");
  const credentials = {
    accessToken: instagram.issueLongLivedToken(),
    accessTokenExpiresAt: Date.now() + 50 * DAY,
    refreshToken: null,
    refreshTokenExpiresAt: null,
  };
  await db.insert(schema.channelConnections).values({
    id: channelId,
    brandId,
    channel: "instagram",
    externalId: instagram.account.userId,
    accountName: "bench",
    credentials: encryptSecret(JSON.stringify(credentials), channelId),
  });
  const now = Date.now();
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const postRows = [];
    const publicationRows = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      const postId = newId("pst");
      const mediaId = String(18_000_000_000_000_000n + BigInt(i));
      // Spread over 89 days, in a scrambled order (7919 is prime, so i ↦ i·7919 mod count is a permutation).
      const publishedAt = new Date(now - Math.floor((((i * 7919) % count) / count) * 89 * DAY) - 60_000);
      instagram.posts.push({
        id: mediaId,
        igUserId: instagram.account.userId,
        mediaType: "IMAGE",
        caption: "",
        media: [],
        containerId: "",
        at: publishedAt.getTime(),
      });
      instagram.insights.track(mediaId);
      postRows.push({
        id: postId,
        groupId: postId,
        brandId,
        channel: "instagram" as const,
        goal: "awareness",
        topic: "Bench",
        caption: `Bench post ${i}`,
        mediaPlan: { format: "text", items: [] },
        hashtags: [],
        status: "published" as const,
        seed: 1,
        provider: "bench",
        model: "bench",
        latencyMs: 1,
      });
      const id = newId("pub");
      ids.push(id);
      publicationRows.push({
        id,
        brandId,
        postId,
        channelId,
        channel: "instagram" as const,
        status: "published" as const,
        publishAt: publishedAt,
        publishedAt,
        externalId: mediaId,
      });
    }
    await db.insert(schema.posts).values(postRows as never);
    await db.insert(schema.publications).values(publicationRows);
  }
  instagram.insights.advance(1);
  const boss = await getQueue();
  const firstRun = await scheduleMetricPulls(boss);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let next = 0;
  const outcomes: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ids.length) {
        const outcome = await pullPublicationMetrics(ids[next++]);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const afterPull = await scheduleMetricPulls(boss);
  const twoHoursLater = await scheduleMetricPulls(boss, new Date(now + 2 * 3_600_000));
  console.log(`collection: ${count} publications, scheduler queued ${firstRun.publications} at first,`);
  console.log(
    `  ${afterPull.publications} right after the pulls, ${twoHoursLater.publications} two hours later`,
  );
  console.log(
    `  one worker's handler, 8 at a time, ${instagram.insights.behavior.latencyMs} ms fake latency:`,
  );
  console.log(`  ${(count / seconds).toFixed(1)} publications/s (${seconds.toFixed(1)} s)`);
  console.log(
    `  this process's CPU (the handler, the fake, the driver): ${((cpu.user + cpu.system) / 1000 / count).toFixed(2)} ms per publication`,
  );
  console.log(`  outcomes: ${JSON.stringify(outcomes)}`);

  // --- 2. brand analytics over a year ---------------------------------------------------------------------
  const posts = Number(option("posts", "500"));
  const yearBrand = newId("brd");
  await db.insert(schema.brands).values({ id: yearBrand, name: "Year brand", timeZone: "Europe/Berlin" });
  await db.insert(schema.brandMembers).values({ brandId: yearBrand, userId, role: "owner" });
  const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
  for (let i = 0; i < posts; i++) {
    const postId = newId("pst");
    const publicationId = newId("pub");
    const publishedAt = new Date(now - Math.floor((i / posts) * 364 * DAY) - 3_600_000);
    await sql`insert into posts (id, group_id, brand_id, channel, goal, topic, caption, media_plan, hashtags, status, seed, provider, model, latency_ms)
      values (${postId}, ${postId}, ${yearBrand}, 'instagram', 'awareness', 'Year', ${`Year post ${i}`}, ${sql.json({ format: "text", items: [] })}, '[]', 'published', 1, 'bench', 'bench', 1)`;
    await sql`insert into publications (id, brand_id, post_id, channel_id, channel, status, publish_at, published_at, external_id)
      values (${publicationId}, ${yearBrand}, ${postId}, ${channelId}, 'instagram', 'published', ${publishedAt}, ${publishedAt}, ${`y${i}`})`;
    // A daily capture of three metrics from publishing to today (at most a year).
    await sql`insert into publication_metrics (publication_id, metric, value, captured_at)
      select ${publicationId}, m, (extract(epoch from d)::bigint % 1000), d
      from generate_series(${publishedAt}::timestamptz, now(), interval '1 day') d,
           unnest(array['views', 'reach', 'interactions']) m`;
    await sql`insert into publication_metric_latest (publication_id, brand_id, metric, value, captured_at)
      select ${publicationId}, ${yearBrand}, m, 100 + ${i}, now() from unnest(array['views', 'reach', 'interactions']) m`;
  }
  await sql`analyze`;
  const principal = { userId, kind: "session" } as never;
  const query = {
    from: new Date(now - 365 * DAY).toISOString().slice(0, 10),
    to: new Date(now).toISOString().slice(0, 10),
    page: 1,
    pageSize: 10,
    format: "json" as const,
  };
  const times: number[] = [];
  for (let i = 0; i < Number(option("requests", "200")); i++) {
    const at = performance.now();
    await getBrandAnalytics({ principal, brandId: yearBrand, query });
    times.push(performance.now() - at);
  }
  console.log(
    `brand analytics, ${posts} posts over a year: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
  );
  // The plan of the API's own query, for the whole period it reads (the year and the year before).
  const { sql: drizzleSql } = await import("drizzle-orm");
  const explained = await db.execute(
    drizzleSql`EXPLAIN (ANALYZE, BUFFERS) ${brandRowsQuery(yearBrand, new Date(now - 732 * DAY), new Date(now + DAY))}`,
  );
  const plan = (Array.isArray(explained) ? explained : (explained as { rows: unknown[] }).rows) as Record<
    string,
    string
  >[];
  console.log(plan.map((row) => row["QUERY PLAN"]).join("\n"));

  await sql.end();
  await stopQueue();
  await closeDatabase();
  await instagram.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
