import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import {
  brands,
  channelConnections,
  channelFollowerCounts,
  channelMetricState,
  posts,
  publicationMetricLatest,
  publicationMetricPulls,
  publicationMetrics,
  publications,
} from "@/db/schema";
import { pullChannelFollowers, pullPublicationMetrics } from "@/lib/analytics/collect-metrics";
import { METRICS_PULL_QUEUE, scheduleMetricPulls } from "@/lib/analytics/metrics-worker";
import { INSIGHTS_NOTICE } from "@/lib/analytics/platforms/instagram";
import { NO_POST_ANALYTICS } from "@/lib/analytics/platforms/linkedin";
import { NO_VIEWS } from "@/lib/analytics/platforms/telegram";
import { nextPullAt, pullIntervalMs } from "@/lib/analytics/pull-schedule";
import type { MetricName } from "@/lib/contracts/metric-names";
import { newId } from "@/lib/ids";
import { getQueue, stopQueue } from "@/lib/queue/boss";
import { encryptSecret } from "@/lib/security/encrypt-secret";
import { metrics } from "@/lib/telemetry/metrics";
import { migrateInProcess } from "./support/database";
import { type FakeInstagram, startFakeInstagram } from "./support/fake-instagram";
import { type FakeLinkedIn, startFakeLinkedIn } from "./support/fake-linkedin";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { createTestDatabase } from "./support/test-server";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The collector runs in this process against its own data folder (and, on PostgreSQL, its own database),
// calling the fakes over HTTP as it calls the platforms.
const saved = { ...process.env };
let dropDatabase: (() => Promise<void>) | undefined;
let telegram: FakeTelegram;
let linkedin: FakeLinkedIn;
let instagram: FakeInstagram;
let brandId: string;

beforeAll(async () => {
  [telegram, linkedin, instagram] = await Promise.all([
    startFakeTelegram(),
    startFakeLinkedIn(),
    startFakeInstagram(),
  ]);
  Object.assign(process.env, {
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bs-analytics-")),
    AUTH_SECRET: process.env.AUTH_SECRET ?? "analytics-collection-test-secret-0123456789",
    TELEGRAM_API_BASE_URL: telegram.url,
    LINKEDIN_API_BASE_URL: linkedin.url,
    LINKEDIN_AUTH_BASE_URL: linkedin.url,
    LINKEDIN_CLIENT_ID: linkedin.clientId,
    LINKEDIN_CLIENT_SECRET: linkedin.clientSecret,
    INSTAGRAM_GRAPH_BASE_URL: instagram.url,
    INSTAGRAM_AUTH_BASE_URL: instagram.url,
    INSTAGRAM_TOKEN_BASE_URL: instagram.url,
    INSTAGRAM_APP_ID: instagram.appId,
    INSTAGRAM_APP_SECRET: instagram.appSecret,
    PUBLISH_TIMEOUT_MS: "5000",
  });
  if (saved.DATABASE_URL) {
    const database = await createTestDatabase(saved.DATABASE_URL);
    process.env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  await migrateInProcess();
  brandId = newId("brd");
  await (await getDb()).insert(brands).values({ id: brandId, name: "Results brand" });
});

afterAll(async () => {
  await stopQueue();
  await closeDatabase();
  await dropDatabase?.();
  fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  await Promise.all([telegram?.close(), linkedin?.close(), instagram?.close()]);
});

async function connect(channel: "telegram" | "linkedin" | "instagram", externalId: string, secret: object) {
  const id = newId("chn");
  await (await getDb()).insert(channelConnections).values({
    id,
    brandId,
    channel,
    externalId,
    accountName: `${channel} account`,
    credentials: encryptSecret(JSON.stringify(secret), id),
  });
  return id;
}

/** A published publication of a new post on the channel, `ageMs` old. */
async function published(
  channelId: string,
  channel: "telegram" | "linkedin" | "instagram",
  externalId: string,
  ageMs = 0,
) {
  const db = await getDb();
  const postId = newId("pst");
  await db.insert(posts).values({
    id: postId,
    groupId: postId,
    brandId,
    channel,
    goal: "awareness",
    topic: "Autumn blend",
    caption: "Our autumn blend is here.",
    mediaPlan: { format: "text", items: [] },
    hashtags: [],
    status: "published",
    seed: 1,
    provider: "local",
    model: "test",
    latencyMs: 1,
  } as unknown as typeof posts.$inferInsert);
  const publishedAt = new Date(Date.now() - ageMs);
  const id = newId("pub");
  await db.insert(publications).values({
    id,
    brandId,
    postId,
    channelId,
    channel,
    status: "published",
    publishAt: publishedAt,
    publishedAt,
    externalId,
  });
  return id;
}

/** The fake's OAuth consent and token exchange, as the browser and the server go through them. */
async function linkedinToken(scope: string) {
  const authorize = new URL(`${linkedin.url}/oauth/v2/authorization`);
  for (const [key, value] of Object.entries({
    response_type: "code",
    client_id: linkedin.clientId,
    redirect_uri: "http://127.0.0.1/callback",
    state: "s",
    scope,
  }))
    authorize.searchParams.set(key, value);
  const page = await (await fetch(authorize)).text();
  const code = new URL(
    (/id="allow" href="([^"]+)"/.exec(page)?.[1] ?? "").replaceAll("&amp;", "&"),
  ).searchParams.get("code");
  const answer = await fetch(`${linkedin.url}/oauth/v2/accessToken`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: code ?? "",
      redirect_uri: "http://127.0.0.1/callback",
      client_id: linkedin.clientId,
      client_secret: linkedin.clientSecret,
    }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function instagramToken() {
  const authorize = new URL(`${instagram.url}/oauth/authorize`);
  for (const [key, value] of Object.entries({
    client_id: instagram.appId,
    redirect_uri: "http://127.0.0.1/callback",
    response_type: "code",
    scope: "instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights",
    state: "s",
  }))
    authorize.searchParams.set(key, value);
  const page = await (await fetch(authorize)).text();
  const code = new URL(
    (/id="allow" href="([^"]+)"/.exec(page)?.[1] ?? "").replaceAll("&amp;", "&"),
  ).searchParams.get("code");
  const short = await fetch(`${instagram.url}/oauth/access_token`, {
    method: "POST",
    body: new URLSearchParams({
      client_id: instagram.appId,
      client_secret: instagram.appSecret,
      grant_type: "authorization_code",
      redirect_uri: "http://127.0.0.1/callback",
      code: code ?? "",
    }),
  });
  const shortToken = ((await short.json()) as { data: { access_token: string }[] }).data[0].access_token;
  const long = await fetch(
    `${instagram.url}/v23.0/access_token?grant_type=ig_exchange_token&client_secret=${instagram.appSecret}&access_token=${shortToken}`,
  );
  return ((await long.json()) as { access_token: string }).access_token;
}

const oauth = (accessToken: string) => ({
  accessToken,
  accessTokenExpiresAt: Date.now() + 30 * DAY,
  refreshToken: null,
  refreshTokenExpiresAt: null,
});

async function latest(publicationId: string) {
  const rows = await (await getDb())
    .select()
    .from(publicationMetricLatest)
    .where(eq(publicationMetricLatest.publicationId, publicationId));
  return Object.fromEntries(rows.map((row) => [row.metric, row.value]));
}

async function history(publicationId: string, metric: MetricName) {
  const rows = await (await getDb())
    .select({ value: publicationMetrics.value })
    .from(publicationMetrics)
    .where(and(eq(publicationMetrics.publicationId, publicationId), eq(publicationMetrics.metric, metric)))
    .orderBy(asc(publicationMetrics.capturedAt));
  return rows.map((row) => row.value);
}

async function pullRow(publicationId: string) {
  const [row] = await (await getDb())
    .select()
    .from(publicationMetricPulls)
    .where(eq(publicationMetricPulls.publicationId, publicationId));
  return row;
}

async function channelState(channelId: string) {
  const db = await getDb();
  const [state] = await db
    .select()
    .from(channelMetricState)
    .where(eq(channelMetricState.channelId, channelId));
  const [channel] = await db.select().from(channelConnections).where(eq(channelConnections.id, channelId));
  return { state, channel };
}

const pullCount = async (platform: string, outcome: string) =>
  (await metrics().metricPulls.get()).values.find(
    (sample) => sample.labels.platform === platform && sample.labels.outcome === outcome,
  )?.value ?? 0;

/** Clears a channel's backoff, as time passing would. */
const clearBackoff = async (channelId: string) =>
  (await getDb())
    .update(channelMetricState)
    .set({ backoffUntil: null })
    .where(eq(channelMetricState.channelId, channelId));

describe("the pull schedule", () => {
  it("is hourly to 24 h, 6-hourly to day 7, daily to day 30, weekly to day 90, then never", () => {
    expect(pullIntervalMs(0)).toBe(HOUR);
    expect(pullIntervalMs(23 * HOUR)).toBe(HOUR);
    expect(pullIntervalMs(DAY)).toBe(6 * HOUR);
    expect(pullIntervalMs(7 * DAY - 1)).toBe(6 * HOUR);
    expect(pullIntervalMs(7 * DAY)).toBe(DAY);
    expect(pullIntervalMs(30 * DAY)).toBe(7 * DAY);
    expect(pullIntervalMs(90 * DAY)).toBeNull();
    const publishedAt = new Date("2026-01-01T00:00:00Z");
    expect(nextPullAt(publishedAt, new Date("2026-01-01T05:00:00Z"))?.toISOString()).toBe(
      "2026-01-01T06:00:00.000Z",
    );
    // The last weekly pull lands on day 90, and nothing after it.
    expect(nextPullAt(publishedAt, new Date(publishedAt.getTime() + 88 * DAY))?.getTime()).toBe(
      publishedAt.getTime() + 90 * DAY,
    );
    expect(nextPullAt(publishedAt, new Date(publishedAt.getTime() + 90 * DAY))).toBeNull();
  });
});

describe("collecting results from the fakes", () => {
  it("Telegram: reactions from message_reaction_count updates, subscribers from getChatMemberCount, views unavailable", async () => {
    const bot = telegram.addBot("results_bot");
    const chatId = telegram.addChannel({ title: "Results", admins: [{ token: bot }] });
    const channelId = await connect("telegram", String(chatId), { botToken: bot });
    const send = await fetch(`${telegram.url}/bot${bot}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: chatId, text: "Hello" }),
    });
    const messageId = String(((await send.json()) as { result: { message_id: number } }).result.message_id);
    const publicationId = await published(channelId, "telegram", messageId);
    const boss = await getQueue();
    await scheduleMetricPulls(boss);

    expect(await pullPublicationMetrics(publicationId)).toBe("pending");
    const fresh = await pullRow(publicationId);
    expect(fresh.missing.views).toEqual({ state: "unavailable", reason: NO_VIEWS });
    expect(fresh.missing.reactions?.state).toBe("pending");
    expect(await latest(publicationId)).toEqual({});

    telegram.insights.advance(2);
    expect(await pullPublicationMetrics(publicationId)).toBe("ok");
    // 👍 likes + 🔥 shares of the fake's growth model: (9 + 2) × 2.
    expect(await latest(publicationId)).toEqual({ reactions: 22, interactions: 22 });
    telegram.insights.advance(1);
    await pullPublicationMetrics(publicationId);
    // No update since: the last count is captured again, never lost.
    await pullPublicationMetrics(publicationId);
    expect(await history(publicationId, "reactions")).toEqual([22, 33, 33]);
    const row = await pullRow(publicationId);
    expect(row.missing.views?.state).toBe("unavailable");
    expect(row.missing.reactions).toBeUndefined();
    expect(row.dueAt && row.pulledAt && row.dueAt.getTime() - row.pulledAt.getTime()).toBe(HOUR);

    expect(await pullChannelFollowers(channelId)).toBe("ok");
    const [followers] = await (await getDb())
      .select()
      .from(channelFollowerCounts)
      .where(eq(channelFollowerCounts.channelId, channelId));
    expect(followers.count).toBe(1000 + 25 * 3);
  });

  it("Instagram: nothing before the first data, then the numbers; deprecated metrics are never asked for", async () => {
    const channelId = await connect("instagram", instagram.account.userId, oauth(await instagramToken()));
    const mediaId = "18000000000000777";
    instagram.posts.push({
      id: mediaId,
      igUserId: instagram.account.userId,
      mediaType: "IMAGE",
      caption: "Autumn",
      media: [],
      containerId: "c1",
      at: Date.now(),
    });
    instagram.insights.track(mediaId);
    const publicationId = await published(channelId, "instagram", mediaId);
    await scheduleMetricPulls(await getQueue());

    expect(await pullPublicationMetrics(publicationId)).toBe("pending");
    const fresh = await pullRow(publicationId);
    expect(fresh.missing.views?.state).toBe("pending");
    expect(fresh.errorCode).toBeNull();

    instagram.insights.advance(1);
    expect(await pullPublicationMetrics(publicationId)).toBe("ok");
    expect(await latest(publicationId)).toEqual({
      views: 120,
      reach: 80,
      reactions: 9,
      comments: 3,
      shares: 2,
      saves: 1,
      interactions: 15,
    });
    expect((await pullRow(publicationId)).missing).toEqual({});

    // Rate limited (error #4 with X-Business-Use-Case-Usage): the channel backs off, nothing is lost.
    instagram.insights.behavior.rateLimit = { count: 1, retryAfterSeconds: 600 };
    instagram.insights.advance(1);
    const before = Date.now();
    expect(await pullPublicationMetrics(publicationId)).toBe("rate_limited");
    const { state } = await channelState(channelId);
    expect(state.backoffUntil?.getTime()).toBeGreaterThanOrEqual(before + 600_000 - 1000);
    expect((await pullRow(publicationId)).errorCode).toBe("rate_limited");
    expect(await latest(publicationId)).toMatchObject({ views: 120 });
    expect(await history(publicationId, "views")).toEqual([120]);
    // While backed off, a due pull makes no call.
    const calls = instagram.calls.length;
    expect(await pullPublicationMetrics(publicationId)).toBe("deferred");
    expect(instagram.calls.length).toBe(calls);
    expect(await pullCount("instagram", "rate_limited")).toBeGreaterThanOrEqual(1);

    // Most of the limit used: the next pull succeeds, then the channel waits.
    await clearBackoff(channelId);
    instagram.insights.behavior.usagePercent = 92;
    expect(await pullPublicationMetrics(publicationId)).toBe("ok");
    expect((await channelState(channelId)).state.backoffUntil?.getTime()).toBeGreaterThan(Date.now());
    expect(await history(publicationId, "views")).toEqual([120, 240]);
    instagram.insights.behavior.usagePercent = 5;

    // The insights permission missing: unavailable with the reason, and a notice to reconnect.
    await clearBackoff(channelId);
    instagram.insights.behavior.denied = true;
    expect(await pullPublicationMetrics(publicationId)).toBe("pending");
    expect((await pullRow(publicationId)).missing.reach).toEqual({
      state: "unavailable",
      reason: INSIGHTS_NOTICE,
    });
    expect((await channelState(channelId)).state.notice).toBe(INSIGHTS_NOTICE);
    expect(await latest(publicationId)).toMatchObject({ views: 240 });
    instagram.insights.behavior.denied = false;
    expect(await pullPublicationMetrics(publicationId)).toBe("ok");
    expect((await channelState(channelId)).state.notice).toBeNull();

    // The fake answers the deprecation error for impressions: the collector never asked for it.
    const deprecated = await fetch(
      `${instagram.url}/v23.0/${mediaId}/insights?metric=impressions&access_token=${await instagramToken()}`,
    );
    expect(deprecated.status).toBe(400);
    expect(((await deprecated.json()) as { error: { code: number } }).error.code).toBe(100);

    // A revoked token: the channel needs reconnecting (channel_reauth_required); snapshots stay.
    instagram.revokeAll();
    expect(await pullPublicationMetrics(publicationId)).toBe("reauth_required");
    const revoked = await channelState(channelId);
    expect(revoked.channel.status).toBe("needs_reconnect");
    expect((await pullRow(publicationId)).errorCode).toBe("channel_reauth_required");
    expect(await history(publicationId, "views")).toEqual([120, 240, 240]);
    expect(await pullPublicationMetrics(publicationId)).toBe("reauth_required");
  });

  it("LinkedIn: member post analytics when granted; else reactions and comments from socialMetadata, the rest unavailable", async () => {
    const granted = await connect(
      "linkedin",
      linkedin.member.sub,
      oauth(await linkedinToken("openid profile w_member_social r_member_postAnalytics")),
    );
    const notGranted = await connect(
      "linkedin",
      `${linkedin.member.sub}-2`,
      oauth(await linkedinToken("openid profile w_member_social")),
    );
    const page = await connect(
      "linkedin",
      "urn:li:organization:2414183",
      oauth(await linkedinToken("openid profile w_member_social r_organization_admin w_organization_social")),
    );
    const post = (urn: string, author: string) => {
      linkedin.posts.push({
        urn,
        author,
        commentary: "Autumn",
        images: [],
        video: null,
        headers: { version: undefined, restli: undefined },
        at: Date.now(),
      });
      linkedin.insights.track(urn);
    };
    post("urn:li:share:9001", `urn:li:person:${linkedin.member.sub}`);
    post("urn:li:share:9002", "urn:li:organization:2414183");
    const memberPub = await published(granted, "linkedin", "urn:li:share:9001");
    const fallbackPub = await published(notGranted, "linkedin", "urn:li:share:9001");
    const pagePub = await published(page, "linkedin", "urn:li:share:9002");
    await scheduleMetricPulls(await getQueue());
    linkedin.insights.advance(1);

    expect(await pullPublicationMetrics(memberPub)).toBe("ok");
    expect(await latest(memberPub)).toEqual({
      views: 120,
      reach: 80,
      reactions: 9,
      comments: 3,
      shares: 2,
      interactions: 14,
    });
    expect((await pullRow(memberPub)).missing.saves?.state).toBe("unavailable");

    expect(await pullPublicationMetrics(fallbackPub)).toBe("ok");
    expect(await latest(fallbackPub)).toEqual({ reactions: 9, comments: 3, interactions: 12 });
    const fallback = await pullRow(fallbackPub);
    expect(fallback.missing.views).toEqual({ state: "unavailable", reason: NO_POST_ANALYTICS });
    expect((await channelState(notGranted)).state.notice).toBe(NO_POST_ANALYTICS);

    expect(await pullPublicationMetrics(pagePub)).toBe("ok");
    expect(await latest(pagePub)).toMatchObject({ views: 120, reach: 80, interactions: 14 });
    expect(await pullChannelFollowers(page)).toBe("ok");
    expect(await pullChannelFollowers(granted)).toBe("pending");

    // 429 with Retry-After backs the channel off for that long.
    linkedin.insights.behavior.rateLimit = { count: 1, retryAfterSeconds: 120 };
    expect(await pullPublicationMetrics(memberPub)).toBe("rate_limited");
    expect(await latest(memberPub)).toMatchObject({ views: 120 });
  });
});

describe("the scheduler", () => {
  it("queues only what is due, never a publication past day 90, and nothing for a backed-off channel", async () => {
    const bot = telegram.addBot("schedule_bot");
    const chatId = telegram.addChannel({ title: "Schedule", admins: [{ token: bot }] });
    const channelId = await connect("telegram", String(chatId), { botToken: bot });
    const due = await published(channelId, "telegram", "101", 2 * HOUR);
    const notYet = await published(channelId, "telegram", "102", 3 * DAY);
    const old = await published(channelId, "telegram", "103", 91 * DAY);
    const db = await getDb();
    const boss = await getQueue();
    await scheduleMetricPulls(boss);
    expect(await pullRow(old)).toBeUndefined();
    // Pulled an hour ago at 3 days old: next due in 5 hours.
    await db
      .update(publicationMetricPulls)
      .set({ dueAt: new Date(Date.now() + 5 * HOUR) })
      .where(eq(publicationMetricPulls.publicationId, notYet));
    const queuedFor = async () => {
      const rows = await db.execute<{ id: string }>(
        sql`select data->>'publicationId' as id from pgboss.job where name = ${METRICS_PULL_QUEUE} and state = 'created'`,
      );
      return (
        (rows as unknown as { rows?: { id: string }[] }).rows ?? (rows as unknown as { id: string }[])
      ).map((row) => row.id);
    };
    await db.execute(sql`delete from pgboss.job where name = ${METRICS_PULL_QUEUE}`);
    await scheduleMetricPulls(boss);
    const queued = await queuedFor();
    expect(queued).toContain(due);
    expect(queued).not.toContain(notYet);
    expect(queued).not.toContain(old);
    // Queued twice while waiting: still one job.
    await scheduleMetricPulls(boss);
    expect((await queuedFor()).filter((id) => id === due)).toHaveLength(1);

    await db.execute(sql`delete from pgboss.job where name = ${METRICS_PULL_QUEUE}`);
    await db
      .insert(channelMetricState)
      .values({ channelId, backoffUntil: new Date(Date.now() + HOUR) })
      .onConflictDoUpdate({
        target: channelMetricState.channelId,
        set: { backoffUntil: new Date(Date.now() + HOUR) },
      });
    await scheduleMetricPulls(boss);
    expect(await queuedFor()).not.toContain(due);
  });
});
