import { randomBytes } from "node:crypto";
import {
  defaultBehavior,
  type FakeServer,
  postWebhook,
  readBody,
  sampleMp4,
  sendJson,
  serveFile,
  startFake,
} from "./fake-provider-kit";

/**
 * A local server that speaks the documented D-ID API (see lib/video/providers/did.ts for the sources):
 * - `POST /images` (multipart field `image`) → 201 `{id, url: "s3://d-id-images-prod/…"}`
 * - `POST /talks` `{source_url, script: {type: "text", input}, webhook?}` → 201 `{id, object: "talk", created_at, status: "created"}`
 * - `GET /talks/{id}` → status created → started → done (with `result_url`, `duration`) or error (`error: {kind, description}`)
 * - `DELETE /talks/{id}`
 * - Auth: `Authorization: Basic <key>`, else 401. A talk's `webhook` gets the talk when it finishes.
 */
export type FakeDid = FakeServer & { apiKey: string };

type Talk = {
  id: string;
  sourceUrl: string;
  input: string;
  webhook: string | null;
  createdAt: number;
  fail: string | null;
  notified: boolean;
  deleted: boolean;
};

export async function startFakeDid(options: { apiKey?: string; port?: number } = {}): Promise<FakeDid> {
  const apiKey = options.apiKey ?? "ZGlkLXRlc3Q6c2VjcmV0";
  const behavior = defaultBehavior();
  const images = new Set<string>();
  const talks = new Map<string, Talk>();
  let submits = 0;
  let webhooks = 0;
  const video = sampleMp4();
  let base = "";

  const statusOf = (t: Talk) => {
    const elapsed = Date.now() - t.createdAt;
    if (elapsed < behavior.renderMs * 0.2) return "created";
    if (elapsed < behavior.renderMs) return "started";
    return t.fail ? "error" : "done";
  };
  const view = (t: Talk) => {
    const status = statusOf(t);
    return {
      id: t.id,
      object: "talk",
      created_at: new Date(t.createdAt).toISOString(),
      source_url: t.sourceUrl,
      status,
      ...(status === "done"
        ? { result_url: `${base}/files/${t.id}.mp4?X-Amz-Expires=86400`, duration: 2 }
        : {}),
      ...(status === "error" ? { error: { kind: "FaceError", description: t.fail } } : {}),
    };
  };
  const timer = setInterval(() => {
    for (const t of talks.values()) {
      const status = statusOf(t);
      if ((status === "done" || status === "error") && !t.notified && t.webhook && !behavior.dropWebhooks) {
        t.notified = true;
        webhooks++;
        void postWebhook(t.webhook, view(t));
      }
    }
  }, 200);

  const fake = await startFake({
    port: options.port,
    behavior,
    state: () => ({
      submits,
      webhooks,
      talks: [...talks.values()].map((t) => ({ id: t.id, status: statusOf(t) })),
    }),
    async handle(req, res, url) {
      if (url.pathname.startsWith("/files/")) return serveFile(res, video, "video/mp4");
      if (req.headers.authorization !== `Basic ${apiKey}`) {
        return sendJson(res, 401, { kind: "AuthorizationError", description: "Unauthorized" });
      }
      if (req.method === "POST" && url.pathname === "/images") {
        const type = req.headers["content-type"] ?? "";
        if (!type.startsWith("multipart/form-data")) {
          return sendJson(res, 400, { kind: "ValidationError", description: "Expected multipart/form-data" });
        }
        const body = await readBody(req);
        const form = await new Response(new Uint8Array(body), {
          headers: { "Content-Type": type },
        }).formData();
        const image = form.get("image");
        if (!(image instanceof Blob) || image.size < 100) {
          return sendJson(res, 400, { kind: "ValidationError", description: "image is required" });
        }
        const id = `img_${randomBytes(8).toString("hex")}`;
        const imageUrl = `s3://d-id-images-prod/fake/${id}/image.jpeg`;
        images.add(imageUrl);
        return sendJson(res, 201, { id, url: imageUrl });
      }
      if (req.method === "POST" && url.pathname === "/talks") {
        const body = JSON.parse((await readBody(req)).toString()) as {
          source_url?: string;
          script?: { type?: string; input?: string };
          webhook?: string;
        };
        if (behavior.rateLimit.count > 0) {
          behavior.rateLimit.count--;
          return sendJson(
            res,
            429,
            { kind: "TooManyRequestsError", description: "Too many requests" },
            {
              "Retry-After": String(behavior.rateLimit.retryAfterSeconds),
            },
          );
        }
        if (!body.source_url || !images.has(body.source_url)) {
          return sendJson(res, 400, {
            kind: "ValidationError",
            description: "source_url is not a valid image",
          });
        }
        if (body.script?.type !== "text" || !body.script.input) {
          return sendJson(res, 400, { kind: "ValidationError", description: "script.input is required" });
        }
        const id = `tlk_${randomBytes(8).toString("hex")}`;
        talks.set(id, {
          id,
          sourceUrl: body.source_url,
          input: body.script.input,
          webhook: body.webhook ?? null,
          createdAt: Date.now(),
          fail: behavior.failNext,
          notified: false,
          deleted: false,
        });
        behavior.failNext = null;
        submits++;
        return sendJson(res, 201, {
          id,
          object: "talk",
          created_at: new Date().toISOString(),
          status: "created",
        });
      }
      const match = url.pathname.match(/^\/talks\/([^/]+)$/);
      if (match) {
        const talk = talks.get(decodeURIComponent(match[1]));
        if (!talk || talk.deleted)
          return sendJson(res, 404, { kind: "NotFoundError", description: "Talk not found" });
        if (req.method === "DELETE") {
          talk.deleted = true;
          return sendJson(res, 200, { deleted: 1 });
        }
        if (req.method === "GET") return sendJson(res, 200, view(talk));
      }
      return sendJson(res, 404, {
        kind: "NotFoundError",
        description: `No route ${req.method} ${url.pathname}`,
      });
    },
  });
  base = fake.url;
  return {
    url: fake.url,
    apiKey,
    behavior,
    requests: fake.requests,
    submits: () => submits,
    lastJobId: () => [...talks.keys()].at(-1) ?? null,
    webhooksSent: () => webhooks,
    close: async () => {
      clearInterval(timer);
      await fake.close();
    },
  };
}
