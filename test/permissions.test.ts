import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "@/lib/contracts";
import { BRAND_ROLES, type BrandRole } from "@/lib/contracts/enums";
import { can, PERMISSIONS } from "@/lib/contracts/permissions";
import { mediaFormatFor } from "@/lib/contracts/posts";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { makeImage } from "./support/images";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT } from "./support/video-api";

/**
 * The permission table (lib/contracts/permissions.ts) against the running server: every brand-scoped
 * operation is sent by an owner, an editor, a viewer and a non-member, and each answer is the one the table
 * implies. The expectations are computed from the table and each operation's declared permission, never
 * written by hand. WORKER=off, so a video job stays queued and can be canceled.
 */
type Actor = BrandRole | "stranger";
type User = Awaited<ReturnType<typeof newUser>>;
type Request = { path: string; method: string; json?: unknown; form?: FormData; status: number };

let server: TestServer;
let owner: User;
let members: Record<BrandRole, User>;
let stranger: User;
let brandId: string;
let postId: string;
let jobId: string;
let channelId: string;
let telegram: FakeTelegram;

const call = (user: User, path: string, init: { method?: string; json?: unknown; body?: FormData } = {}) =>
  api(path, { server: server.url, token: user.token, ...init });

async function invite(email: string, role: BrandRole) {
  const response = await call(owner, `/api/brands/${brandId}/invitations`, {
    method: "POST",
    json: { email, role },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { invitationId: string; link: string };
}

/** Invites a new user with `role` and accepts as them: a member to change or remove. */
async function addMember(role: BrandRole) {
  const user = await newUser(server.url);
  const { link } = await invite(user.email, role);
  const token = link.split("/invite/")[1];
  const accepted = await call(user, `/api/invitations/${token}/accept`, { method: "POST", json: {} });
  expect(accepted.status, accepted.text).toBe(200);
  expect(accepted.body).toEqual({ brandId, role });
  return user;
}

async function newJob() {
  const response = await call(owner, "/api/video/jobs", {
    method: "POST",
    json: { brandId, mode: "regular", script: SCRIPT },
  });
  expect(response.status, response.text).toBe(202);
  return response.body.jobId as string;
}

async function newPost() {
  const response = await call(owner, "/api/content/create", { method: "POST", json: brief() });
  expect(response.status, response.text).toBe(201);
  return response.body.postId as string;
}

/** A post whose media plan is one image item (index 0), for the media-image operations. */
async function newImagePost() {
  const id = await newPost();
  const items = [
    { type: "image", aspectRatio: "1:1", description: "The roast on the counter", altText: "Roast" },
  ];
  const patched = await call(owner, `/api/posts/${id}`, {
    method: "PATCH",
    json: { mediaPlan: { format: mediaFormatFor(items as never), items } },
  });
  expect(patched.status, patched.text).toBe(200);
  return id;
}

const fileForm = (bytes: Buffer, name: string, type: string) => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};

/** A two-second WAV tone made by ffmpeg. */
async function tone() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "perm-tone-")), "tone.wav");
  await promisify(execFile)("ffmpeg", [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=330:duration=2",
    file,
  ]);
  return fs.readFileSync(file);
}

const brief = () => ({ brandId, channel: "linkedin", goal: "awareness", topic: "Our new seasonal roast" });

/** How to send each brand-scoped operation successfully (fresh resources where it consumes one). */
const REQUESTS: Record<string, () => Promise<Omit<Request, "method">>> = {
  "get-brand": async () => ({ path: `/api/brands/${brandId}`, status: 200 }),
  "update-brand": async () => ({
    path: `/api/brands/${brandId}`,
    json: { audience: "People who love coffee" },
    status: 200,
  }),
  "brand-context": async () => ({ path: `/api/brands/${brandId}/context`, status: 200 }),
  "upload-avatar": async () => {
    const form = new FormData();
    const image = await makeImage();
    form.append("file", new Blob([new Uint8Array(image)], { type: "image/png" }), "avatar.png");
    return { path: `/api/brands/${brandId}/avatar`, form, status: 202 };
  },
  "generate-post": async () => ({ path: "/api/content/create", json: brief(), status: 201 }),
  "generate-post-stream": async () => ({ path: "/api/content/create/stream", json: brief(), status: 200 }),
  "get-post": async () => ({ path: `/api/posts/${postId}`, status: 200 }),
  "update-post": async () => ({ path: `/api/posts/${postId}`, json: { hashtags: ["#Coffee"] }, status: 200 }),
  "list-posts": async () => ({ path: `/api/posts?brandId=${brandId}`, status: 200 }),
  "generate-video": async () => ({
    path: "/api/video/jobs",
    json: { brandId, mode: "regular", script: SCRIPT },
    status: 202,
  }),
  "video-job-status": async () => ({ path: `/api/video/jobs/${jobId}`, status: 200 }),
  "list-video-jobs": async () => ({ path: `/api/video/jobs?brandId=${brandId}`, status: 200 }),
  "cancel-video-job": async () => ({ path: `/api/video/jobs/${await newJob()}`, status: 200 }),
  "list-members": async () => ({ path: `/api/brands/${brandId}/members`, status: 200 }),
  "update-member": async () => {
    const member = await addMember("viewer");
    return { path: `/api/brands/${brandId}/members/${member.userId}`, json: { role: "editor" }, status: 200 };
  },
  "remove-member": async () => {
    const member = await addMember("viewer");
    return { path: `/api/brands/${brandId}/members/${member.userId}`, status: 204 };
  },
  "list-invitations": async () => ({ path: `/api/brands/${brandId}/invitations`, status: 200 }),
  "create-invitation": async () => ({
    path: `/api/brands/${brandId}/invitations`,
    json: { email: `invitee-${Math.random().toString(36).slice(2)}@example.test`, role: "viewer" },
    status: 201,
  }),
  "resend-invitation": async () => {
    const { invitationId } = await invite(
      `again-${Math.random().toString(36).slice(2)}@example.test`,
      "editor",
    );
    return { path: `/api/brands/${brandId}/invitations/${invitationId}/resend`, json: {}, status: 200 };
  },
  "submit-post": async () => ({ path: `/api/posts/${await newPost()}/submit`, json: {}, status: 200 }),
  "review-post": async () => {
    const id = await newPost();
    const submitted = await call(owner, `/api/posts/${id}/submit`, { method: "POST", json: {} });
    expect(submitted.status, submitted.text).toBe(200);
    return {
      path: `/api/posts/${id}/review`,
      json: { decision: "approve", version: submitted.body.version },
      status: 200,
    };
  },
  "upload-logo": async () => ({
    path: `/api/brands/${brandId}/logo`,
    form: fileForm(await makeImage(), "logo.png", "image/png"),
    status: 200,
  }),
  "delete-logo": async () => ({ path: `/api/brands/${brandId}/logo`, status: 200 }),
  "upload-music": async () => ({
    path: `/api/brands/${brandId}/music`,
    form: fileForm(await tone(), "bed.wav", "audio/wav"),
    status: 200,
  }),
  "delete-music": async () => ({ path: `/api/brands/${brandId}/music`, status: 200 }),
  "brand-preview-frame": async () => ({ path: `/api/brands/${brandId}/preview`, status: 200 }),
  "generate-media-image": async () => ({
    path: `/api/posts/${await newImagePost()}/media/0/image/generate`,
    status: 200,
  }),
  "upload-media-image": async () => ({
    path: `/api/posts/${await newImagePost()}/media/0/image`,
    form: fileForm(await makeImage(), "picture.png", "image/png"),
    status: 200,
  }),
  "delete-media-image": async () => {
    const id = await newImagePost();
    const made = await call(owner, `/api/posts/${id}/media/0/image/generate`, { method: "POST" });
    expect(made.status, made.text).toBe(200);
    return { path: `/api/posts/${id}/media/0/image`, status: 200 };
  },
  "create-publication": async () => ({
    path: `/api/posts/${await newPost()}/publications`,
    json: { channelId, publishAt: new Date(Date.now() + 86_400_000).toISOString() },
    status: 202,
  }),
  "reschedule-publication": async () => {
    const created = await call(owner, `/api/posts/${await newPost()}/publications`, {
      method: "POST",
      json: { channelId, publishAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(created.status, created.text).toBe(202);
    return {
      path: `/api/publications/${created.body.publicationId}`,
      json: { publishAt: new Date(Date.now() + 2 * 86_400_000).toISOString() },
      status: 200,
    };
  },
  // No worker runs here, so the owner's answer is the outcome check's 409 (the publication is scheduled, its
  // outcome not unknown): past the role check, as a 2xx would be.
  "mark-publication-posted": async () => {
    const created = await call(owner, `/api/posts/${await newPost()}/publications`, {
      method: "POST",
      json: { channelId, publishAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(created.status, created.text).toBe(202);
    return {
      path: `/api/publications/${created.body.publicationId}/posted`,
      json: { permalink: "https://t.me/acme_news/42" },
      status: 409,
    };
  },
  "send-publication-again": async () => {
    const created = await call(owner, `/api/posts/${await newPost()}/publications`, {
      method: "POST",
      json: { channelId, publishAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(created.status, created.text).toBe(202);
    return { path: `/api/publications/${created.body.publicationId}/send-again`, status: 409 };
  },
  "list-activity": async () => ({ path: `/api/brands/${brandId}/activity`, status: 200 }),
  "publish-all-languages": async () => ({
    path: `/api/posts/${await newPost()}/publications/all-languages`,
    json: { publishAt: new Date(Date.now() + 86_400_000).toISOString() },
    status: 202,
  }),
  "get-post-metrics": async () => ({ path: `/api/posts/${postId}/metrics`, status: 200 }),
  "refresh-post-metrics": async () => ({
    path: `/api/posts/${await newPost()}/metrics/refresh`,
    status: 202,
  }),
  "get-brand-analytics": async () => ({ path: `/api/brands/${brandId}/analytics`, status: 200 }),
  "get-channel-schedule": async () => ({ path: `/api/channels/${channelId}/schedule`, status: 200 }),
  "replace-channel-schedule": async () => ({
    path: `/api/channels/${channelId}/schedule`,
    json: { slots: [{ weekday: 2, time: "09:30" }] },
    status: 200,
  }),
  "get-brand-insights": async () => ({ path: `/api/brands/${brandId}/insights`, status: 200 }),
  "revoke-invitation": async () => {
    const { invitationId } = await invite(
      `revoke-${Math.random().toString(36).slice(2)}@example.test`,
      "editor",
    );
    return { path: `/api/brands/${brandId}/invitations/${invitationId}`, status: 200 };
  },
};

const brandScoped = operations.filter((operation) => operation.permission);

beforeAll(async () => {
  telegram = await startFakeTelegram();
  server = await startTestServer({ env: { WORKER: "off", TELEGRAM_API_BASE_URL: telegram.url } });
  [owner, stranger] = await Promise.all([newUser(server.url), newUser(server.url)]);
  const brand = await call(owner, "/api/brands", {
    method: "POST",
    json: { name: "Team Brand", tone: "warm and direct", voice: "Short sentences, concrete detail." },
  });
  expect(brand.status, brand.text).toBe(201);
  brandId = brand.body.brandId;
  members = {
    owner,
    editor: await addMember("editor"),
    viewer: await addMember("viewer"),
  };
  const post = await call(owner, "/api/content/create", { method: "POST", json: brief() });
  expect(post.status, post.text).toBe(201);
  postId = post.body.postId;
  jobId = await newJob();
  const botToken = telegram.addBot("team_publisher_bot");
  const chatId = telegram.addChannel({ title: "Team News", admins: [{ token: botToken }] });
  const channel = await call(owner, "/api/channels", {
    method: "POST",
    json: { brandId, channel: "telegram", botToken, chatId: String(chatId) },
  });
  expect(channel.status, channel.text).toBe(201);
  channelId = channel.body.channelId;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("the permission table, enforced on every brand operation", () => {
  it("knows how to send every brand-scoped operation, and only those have a brand in their path or body", () => {
    expect(Object.keys(REQUESTS).sort()).toEqual(brandScoped.map((operation) => operation.id).sort());
    for (const operation of operations.filter((op) => !op.permission)) {
      expect(operation.path, operation.id).not.toMatch(/\{(brandId|postId|jobId)\}/);
    }
  });

  const actors: Actor[] = [...BRAND_ROLES, "stranger"];
  for (const operation of brandScoped) {
    const permission = operation.permission as keyof typeof PERMISSIONS;
    for (const actor of actors) {
      const expected =
        actor === "stranger" ? "404 not_found" : can(actor, permission) ? "success" : "403 forbidden";
      it(`${operation.id} (${permission}, needs ${PERMISSIONS[permission]}) as ${actor}: ${expected}`, async () => {
        const request = await REQUESTS[operation.id]();
        const user = actor === "stranger" ? stranger : members[actor];
        const response = await call(user, request.path, {
          method: operation.method,
          json: request.json,
          body: request.form,
        });
        if (expected === "success") {
          expect(response.status, response.text).toBe(request.status);
        } else if (expected === "404 not_found") {
          expect(response.status, response.text).toBe(404);
          expect(response.body.error.code).toBe("not_found");
        } else {
          expect(response.status, response.text).toBe(403);
          expect(response.body.error).toMatchObject({
            code: "forbidden",
            retryable: false,
            details: { role: actor, required: PERMISSIONS[permission] },
          });
          expect(operation.errors).toContain("forbidden");
        }
      });
    }
  }
});

describe("a brand always keeps an owner", () => {
  it("refuses to demote or remove the last owner, and allows it once there is another", async () => {
    const self = `/api/brands/${brandId}/members/${owner.userId}`;
    const demote = await call(owner, self, { method: "PATCH", json: { role: "editor" } });
    expect(demote.status, demote.text).toBe(409);
    expect(demote.body.error).toMatchObject({ code: "last_owner", details: { brandId } });
    const remove = await call(owner, self, { method: "DELETE" });
    expect(remove.status).toBe(409);
    expect(remove.body.error.code).toBe("last_owner");

    const second = await addMember("editor");
    const promoted = await call(owner, `/api/brands/${brandId}/members/${second.userId}`, {
      method: "PATCH",
      json: { role: "owner" },
    });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body).toMatchObject({ userId: second.userId, role: "owner", email: second.email });
    const stepDown = await call(second, self, { method: "PATCH", json: { role: "editor" } });
    expect(stepDown.status, stepDown.text).toBe(200);
    // Now the first owner is an editor: member management is an owner's, and the only owner cannot leave.
    const forbidden = await call(owner, `/api/brands/${brandId}/members/${second.userId}`, {
      method: "DELETE",
    });
    expect(forbidden.status).toBe(403);
    const last = await call(second, `/api/brands/${brandId}/members/${second.userId}`, { method: "DELETE" });
    expect(last.body.error.code).toBe("last_owner");
    const back = await call(second, self, { method: "PATCH", json: { role: "owner" } });
    expect(back.status).toBe(200);
  });

  it("a removed member gets 404 for the brand and its post and job at once", async () => {
    const member = await addMember("editor");
    expect((await call(member, `/api/video/jobs/${jobId}`)).status).toBe(200);
    const removed = await call(owner, `/api/brands/${brandId}/members/${member.userId}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    expect((await call(member, `/api/brands/${brandId}`)).status).toBe(404);
    expect((await call(member, `/api/posts/${postId}`)).status).toBe(404);
    expect((await call(member, `/api/video/jobs/${jobId}`)).status).toBe(404);
    const list = await call(member, "/api/brands");
    expect(list.body.items.map((brand: { brandId: string }) => brand.brandId)).not.toContain(brandId);
  });
});
