import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";
import { waitFor } from "./support/video-media";

/** A user's endpoint: records every request; `answer` decides the status of the next one. */
async function startReceiver() {
  const received: { headers: Record<string, string>; body: string }[] = [];
  let answer = (_index: number) => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(answer(received.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    setAnswer: (fn: (index: number) => number) => {
      answer = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("webhooks to our users (Standard Webhooks)", () => {
  let server: TestServer;
  let client: ReturnType<typeof videoClient>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { WEBHOOK_RETRY_DELAY_SECONDS: "1" } });
    client = videoClient(server.url, (await newUser(server.url)).token);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  const register = (events: string[], url = receiver.url) =>
    client.call("/api/webhooks", { method: "POST", json: { url, events } });

  it("registers, lists (without the secret) and deletes an endpoint; another user's answers 404", async () => {
    const bad = await register(["video.exploded"]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect((await register(["video.succeeded"], "ftp://example.com/x")).status).toBe(400);

    const created = await register(["video.failed"]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, events: ["video.failed"] });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const listed = await client.call("/api/webhooks");
    expect(listed.body.items).toContainEqual(expect.objectContaining({ webhookId: created.body.webhookId }));
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const stranger = videoClient(server.url, (await newUser(server.url)).token);
    expect(
      (await stranger.call(`/api/webhooks/${created.body.webhookId}`, { method: "DELETE" })).status,
    ).toBe(404);
    expect((await stranger.call(`/api/webhooks/${created.body.webhookId}/deliveries`)).status).toBe(404);
    expect((await client.call(`/api/webhooks/${created.body.webhookId}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await client.call(`/api/webhooks/${created.body.webhookId}`, { method: "DELETE" })).status).toBe(
      404,
    );
  });

  it("delivers a video.succeeded that the standardwebhooks library verifies, with the job as its status GET shows it", async () => {
    const created = await register(["video.succeeded"]);
    const brandId = await client.newBrand();
    const response = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    expect(response.status).toBe(202);
    const { job } = await client.pollJob(
      response.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job.status).toBe("succeeded");

    const delivery = await waitFor(
      () =>
        receiver.received.find(
          (r) => r.body.includes(response.body.jobId) && r.body.includes("video.succeeded"),
        ),
      { what: "the video.succeeded delivery" },
    );
    const event = new Webhook(created.body.secret).verify(delivery.body, delivery.headers) as {
      type: string;
      timestamp: string;
      data: { videoUrl: string };
    };
    expect(event.type).toBe("video.succeeded");
    // Signed media URLs carry an expiry that moves on at the hour, so the delivery and a later GET may sign
    // differently; everything else is the same, and the delivery's own URL works.
    const unsigned = (view: unknown) => JSON.parse(JSON.stringify(view).replace(/\?exp=\d+&sig=[\w-]+/g, ""));
    expect(unsigned(event.data)).toEqual(unsigned(await client.getJob(response.body.jobId)));
    expect(event.data.videoUrl).toMatch(/\?exp=\d+&sig=/);
    expect((await fetch(`${server.url}${event.data.videoUrl}`)).status).toBe(200);
    expect(delivery.headers["webhook-id"]).toMatch(/^msg_/);
    // A wrong secret does not verify.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString("base64")}`).verify(delivery.body, delivery.headers),
    ).toThrow();
  });

  it("retries a failing endpoint with the same webhook-id, and shows the attempts in the delivery log", async () => {
    const created = await register(["video.failed"]);
    const start = receiver.received.length;
    receiver.setAnswer((index) => (index - start < 2 ? 500 : 200));
    const test = await client.call(`/api/webhooks/${created.body.webhookId}/test`, {
      method: "POST",
      json: {},
    });
    expect(test.status).toBe(202);
    const { deliveryId } = test.body;

    const log = await waitFor(
      async () => {
        const response = await client.call(`/api/webhooks/${created.body.webhookId}/deliveries`);
        const item = response.body.items.find((d: { deliveryId: string }) => d.deliveryId === deliveryId);
        return item?.status === "succeeded" ? item : null;
      },
      { timeoutMs: 60_000, what: "the test delivery to succeed after retries" },
    );
    expect(log).toMatchObject({
      eventType: "webhook.test",
      attempts: 3,
      responseStatus: 200,
      lastError: null,
    });
    const attempts = receiver.received.slice(start).filter((r) => r.headers["webhook-id"] === deliveryId);
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) {
      expect(new Webhook(created.body.secret).verify(attempt.body, attempt.headers)).toMatchObject({
        type: "webhook.test",
      });
    }
  });
});
