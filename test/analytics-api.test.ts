import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { settledPublication } from "./support/publication-api";
import { startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";

// A server of its own (its worker inline) against the fake Telegram: publish, advance the fake's numbers,
// refresh, and read them back through the API and the CSV.
let telegram: FakeTelegram;
let server: TestServer;
let token: string;
let brandId: string;
let postId: string;
let channelId: string;
const call = (path: string, init: Parameters<typeof api>[1] = {}) =>
  api(path, { server: server.url, token, ...init });

beforeAll(async () => {
  telegram = await startFakeTelegram();
  server = await startTestServer({
    env: { TELEGRAM_API_BASE_URL: telegram.url, PUBLISH_TIMEOUT_MS: "4000" },
  });
  ({ token } = await newUser(server.url));
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "Results Brand", tone: "warm", voice: "short sentences" },
  });
  brandId = brand.body.brandId;
  const bot = telegram.addBot("results_api_bot");
  const chat = telegram.addChannel({ title: "Results API", admins: [{ token: bot }] });
  const connected = await call("/api/channels", {
    method: "POST",
    json: { brandId, channel: "telegram", botToken: bot, chatId: String(chat) },
  });
  expect(connected.status, connected.text).toBe(201);
  channelId = connected.body.channelId;
  // APP_URL is 127.0.0.1 and no TELEGRAM_WEBHOOK_BASE_URL: no webhook, the worker polls getUpdates.
  expect(telegram.webhookOf(bot)).toBeNull();
  const post = await call("/api/content/create", {
    method: "POST",
    json: { brandId, channel: "telegram", goal: "announcement", topic: "Our autumn blend arrives next week" },
  });
  expect(post.status, post.text).toBe(201);
  postId = post.body.postId;
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("post metrics and brand analytics over HTTP", () => {
  it("answers no publications before publishing, and 404 for another user's post", async () => {
    const before = await call(`/api/posts/${postId}/metrics`);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ postId, publications: [] });
    const stranger = await newUser(server.url);
    const hidden = await api(`/api/posts/${postId}/metrics`, { server: server.url, token: stranger.token });
    expect(hidden.status).toBe(404);
    const hiddenBrand = await api(`/api/brands/${brandId}/analytics`, {
      server: server.url,
      token: stranger.token,
    });
    expect(hiddenBrand.status).toBe(404);
  });

  it("reads the fake's reactions after an owner's refresh; views stay unavailable, never 0", async () => {
    const created = await call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId } });
    expect(created.status, created.text).toBe(202);
    const publication = await settledPublication(call, created.body.publicationId);
    expect(publication.status).toBe("published");
    telegram.insights.advance(2);

    const refreshed = await call(`/api/posts/${postId}/metrics/refresh`, { method: "POST", json: {} });
    expect(refreshed.status, refreshed.text).toBe(202);
    expect(refreshed.body).toEqual({ postId, queued: 1 });
    // Once per 5 minutes per post.
    const again = await call(`/api/posts/${postId}/metrics/refresh`, { method: "POST", json: {} });
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe("rate_limited");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);

    const body = await waitFor(
      async () => {
        const response = await call(`/api/posts/${postId}/metrics`);
        return response.body.publications[0]?.pulledAt ? response.body : null;
      },
      { what: "the pull the refresh queued" },
    );
    const [results] = body.publications;
    const metricOf = (name: string) =>
      results.metrics.find((metric: { name: string }) => metric.name === name);
    expect(results).toMatchObject({
      channel: "telegram",
      channelId,
      accountName: "Results API",
      error: null,
    });
    // 👍 and 🔥 of the fake's growth model after two steps: (9 + 2) × 2.
    expect(metricOf("reactions")).toMatchObject({ value: 22, state: "measured" });
    expect(metricOf("interactions")).toMatchObject({ value: 22, state: "measured" });
    expect(metricOf("views")).toMatchObject({
      value: null,
      state: "unavailable",
      reason: "Not available from Telegram's Bot API.",
    });
    expect(results.engagementRate).toBeNull();
    expect(results.series).toEqual([
      { capturedAt: results.pulledAt, values: { reactions: 22, interactions: 22 } },
    ]);
    expect(Date.parse(results.nextPullAt) - Date.parse(results.pulledAt)).toBe(3_600_000);
    expect(telegram.calls.some((c) => c.method === "getUpdates" && c.status === 200)).toBe(true);
  });

  it("answers the brand's analytics for a period, bounded to a year, and the same rows as CSV", async () => {
    const analytics = await call(`/api/brands/${brandId}/analytics`);
    expect(analytics.status, analytics.text).toBe(200);
    expect(analytics.body.totals.posts).toBe(1);
    expect(analytics.body.totals.views).toBeNull();
    expect(analytics.body.daily).toHaveLength(30);
    expect(analytics.body.topPosts).toMatchObject({ page: 1, pageSize: 10, total: 1 });
    expect(analytics.body.missing).toContainEqual(
      expect.objectContaining({ channel: "telegram", metric: "views", state: "unavailable" }),
    );
    const filtered = await call(`/api/brands/${brandId}/analytics?channelId=chn_AAAAAAAAAAAAAAAA`);
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body.totals.posts).toBe(0);

    const tooLong = await call(`/api/brands/${brandId}/analytics?from=2025-01-01&to=2026-01-02`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe("invalid_request");
    const reversed = await call(`/api/brands/${brandId}/analytics?from=2025-02-01&to=2025-01-01`);
    expect(reversed.status).toBe(400);

    const asks: { path: string; headers: Record<string, string> }[] = [
      { path: "?format=csv", headers: {} },
      { path: "", headers: { accept: "text/csv" } },
    ];
    for (const init of asks) {
      const response = await fetch(`${server.url}/api/brands/${brandId}/analytics${init.path}`, {
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="analytics-/);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
      expect(lines[0]).toBe(
        "published_at,time_zone,channel,post_id,caption,permalink,views,reach,interactions,engagement_rate",
      );
      expect(lines).toHaveLength(3);
      const cells = lines[1].split(",");
      expect(cells[2]).toBe("telegram");
      expect(cells[3]).toBe(postId);
      // Views and reach are not given by Telegram: empty cells, never 0.
      expect(lines[1]).toMatch(/,,,\d*,$/);
    }
  });

  it("paginates top posts and refuses a page size above 100", async () => {
    const page = await call(`/api/brands/${brandId}/analytics?page=2&pageSize=1`);
    expect(page.status).toBe(200);
    expect(page.body.topPosts.items).toEqual([]);
    const big = await call(`/api/brands/${brandId}/analytics?pageSize=101`);
    expect(big.status).toBe(400);
  });
});
