import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import {
  brandMembers,
  brands,
  type Publication,
  posts,
  publications,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "@/db/schema";
import { newId } from "@/lib/ids";
import { writePublicationEvent } from "@/lib/publishing/emit-publication-event";
import { getQueue, stopQueue } from "@/lib/queue/boss";
import { webhookWorker } from "@/lib/webhooks/deliver-webhook";
import { drainWebhookOutbox } from "@/lib/webhooks/record-event";
import { migrateInProcess } from "./support/database";
import { createTestDatabase } from "./support/test-server";
import { waitFor } from "./support/video-media";

// Issue 39, item 19: `post.published` is written in the transaction that settles the publication (the
// webhook deliveries are the outbox). A process that ends after the commit and before queuing it loses
// nothing: the worker's outbox drain queues it, once. In this process, on its own data folder and (on a
// PostgreSQL run) its own database, with the real queue and a receiver on 127.0.0.1.
const originalEnv = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
let dropDatabase: (() => Promise<void>) | undefined;
const received: { id: string; body: string }[] = [];
let receiver: http.Server;
let publication: Publication;

beforeAll(async () => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bs-outbox-"));
  if (originalEnv.DATABASE_URL) {
    const database = await createTestDatabase(originalEnv.DATABASE_URL);
    process.env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  await migrateInProcess();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));

  const db = await getDb();
  const userId = newId("usr");
  const brandId = newId("brd");
  const postId = newId("pst");
  await db.insert(users).values({ id: userId, email: `${userId}@example.test` });
  await db.insert(brands).values({ id: brandId, name: "Outbox Roasters" });
  await db.insert(brandMembers).values({ brandId, userId, role: "owner" });
  await db.insert(webhookEndpoints).values({
    id: newId("whk"),
    userId,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ["post.published"],
    secret: `whsec_${Buffer.alloc(24, 7).toString("base64")}`,
  });
  await db.insert(posts).values({
    id: postId,
    groupId: postId,
    brandId,
    channel: "telegram",
    goal: "announcement",
    topic: "Roasting day",
    caption: "Roasting day.",
    mediaPlan: { format: "text_only", items: [] },
    hashtags: [],
    status: "published",
    seed: 1,
    provider: "test",
    model: "test",
    latencyMs: 1,
  });
  [publication] = await db
    .insert(publications)
    .values({
      id: newId("pub"),
      brandId,
      postId,
      channel: "telegram",
      status: "published",
      publishAt: new Date(),
      publishedAt: new Date(),
      finishedAt: new Date(),
      externalId: "42",
    })
    .returning();
});

afterAll(async () => {
  await stopQueue();
  await closeDatabase();
  await dropDatabase?.();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  for (const [name, value] of Object.entries(originalEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("publication webhooks go through an outbox", () => {
  it("are written with the settlement or not at all", async () => {
    const db = await getDb();
    const rolledBack = await db
      .transaction(async (tx) => {
        expect(await writePublicationEvent(tx, publication)).toHaveLength(1);
        throw new Error("the settlement failed");
      })
      .catch((error: Error) => error.message);
    expect(rolledBack).toBe("the settlement failed");
    expect(await db.select().from(webhookDeliveries)).toEqual([]);
  });

  it("are delivered once after the process ended between the commit and the queuing", async () => {
    const db = await getDb();
    // The settlement's transaction commits the event; the process then ends before it queues anything.
    const [deliveryId] = await db.transaction((tx) => writePublicationEvent(tx, publication));
    const [written] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(written).toMatchObject({ status: "pending", attempts: 0, eventType: "post.published" });

    // Another worker starts: its outbox drain queues the delivery. Drained twice, it is still one job.
    const boss = await getQueue();
    expect(await drainWebhookOutbox()).toBe(1);
    expect(await drainWebhookOutbox()).toBe(1);
    await webhookWorker.start(boss);
    const delivered = await waitFor(
      async () => {
        const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
        return row.status === "succeeded" && row;
      },
      { timeoutMs: 30_000, what: "the delivery" },
    );
    expect(delivered.attempts).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0].id).toBe(deliveryId);
    expect(JSON.parse(received[0].body)).toMatchObject({
      type: "post.published",
      data: { publicationId: publication.id, status: "published", externalId: "42" },
    });
    expect(await boss.findJobs("webhook-delivery")).toHaveLength(1);
    // Nothing is left to drain.
    expect(await drainWebhookOutbox()).toBe(0);
  });
});
