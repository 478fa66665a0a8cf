import { beforeAll, describe, expect, it } from "vitest";
import { activityPage } from "@/lib/contracts/activity";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";

/**
 * The activity log records videos made and canceled (in the brand they belong to), and API keys and
 * webhooks created and revoked (in every brand of the person who did it: they act on all of them), each in
 * the transaction of the change: a change that fails leaves no entry.
 */
type User = Awaited<ReturnType<typeof newUser>>;

let owner: User;
let editor: User;
let sharedBrand: string;
let editorsOwnBrand: string;
let ownersOtherBrand: string;

async function newBrand(user: User, name: string) {
  const response = await api("/api/brands", {
    method: "POST",
    token: user.token,
    json: { name, tone: "warm", voice: "short sentences" },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.brandId as string;
}

async function activityOf(brandId: string, token = owner.token) {
  const response = await api(`/api/brands/${brandId}/activity?limit=100`, { token });
  expect(response.status, response.text).toBe(200);
  return activityPage.parse(response.body).items;
}

beforeAll(async () => {
  [owner, editor] = await Promise.all([newUser(baseUrl()), newUser(baseUrl())]);
  sharedBrand = await newBrand(owner, "Shared Brand");
  ownersOtherBrand = await newBrand(owner, "Owner's Other Brand");
  editorsOwnBrand = await newBrand(editor, "Editor's Own Brand");
  const invitation = await api(`/api/brands/${sharedBrand}/invitations`, {
    method: "POST",
    token: owner.token,
    json: { email: editor.email, role: "editor" },
  });
  expect(invitation.status, invitation.text).toBe(201);
  const token = invitation.body.link.split("/invite/")[1];
  const accepted = await api(`/api/invitations/${token}/accept`, {
    method: "POST",
    token: editor.token,
    json: {},
  });
  expect(accepted.status, accepted.text).toBe(200);
});

describe("activity for videos, API keys and webhooks", () => {
  it("records a video made and canceled in its brand, with who did it", async () => {
    const created = await api("/api/video/jobs", {
      method: "POST",
      token: editor.token,
      json: {
        brandId: sharedBrand,
        mode: "regular",
        script: "Our new roast is here. Come and taste it today.",
      },
    });
    expect(created.status, created.text).toBe(202);
    const { jobId } = created.body;
    const canceled = await api(`/api/video/jobs/${jobId}`, { method: "DELETE", token: editor.token });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.status).toBe("canceled");
    // Canceling again answers the job again, and records nothing more.
    expect((await api(`/api/video/jobs/${jobId}`, { method: "DELETE", token: editor.token })).status).toBe(
      200,
    );

    const entries = (await activityOf(sharedBrand)).filter((entry) => entry.subjectId === jobId);
    expect(entries.map((entry) => entry.action)).toEqual(["video.canceled", "video.created"]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        brandId: sharedBrand,
        actorId: editor.userId,
        actorEmail: editor.email,
        subjectType: "video",
      });
    }
    expect(entries[1].details).toMatchObject({ mode: "regular" });
    expect(entries[0].details).toMatchObject({ previousStatus: expect.stringMatching(/^(queued|running)$/) });
    // Another brand's log has none of it.
    expect((await activityOf(ownersOtherBrand)).some((entry) => entry.subjectId === jobId)).toBe(false);
  });

  it("records an API key created and revoked in every brand of its owner, without the key", async () => {
    const created = await api("/api/keys", {
      method: "POST",
      token: editor.token,
      json: { name: "CI script" },
    });
    expect(created.status, created.text).toBe(201);
    const { keyId, key, hint } = created.body;
    const revoked = await api(`/api/keys/${keyId}`, { method: "DELETE", token: editor.token });
    expect(revoked.status, revoked.text).toBeLessThan(300);
    // A revoke that fails (already revoked: 404) records nothing.
    expect((await api(`/api/keys/${keyId}`, { method: "DELETE", token: editor.token })).status).toBe(404);

    for (const [brandId, token] of [
      [sharedBrand, owner.token],
      [editorsOwnBrand, editor.token],
    ]) {
      const entries = (await activityOf(brandId, token)).filter((entry) => entry.subjectId === keyId);
      expect(entries.map((entry) => entry.action)).toEqual(["api_key.revoked", "api_key.created"]);
      for (const entry of entries) {
        expect(entry).toMatchObject({ actorId: editor.userId, subjectType: "api_key" });
        expect(entry.details).toEqual({ name: "CI script", hint });
        expect(JSON.stringify(entry)).not.toContain(key);
      }
    }
    expect((await activityOf(ownersOtherBrand)).some((entry) => entry.subjectId === keyId)).toBe(false);
  });

  it("records a webhook created and revoked in every brand of its owner, with the host only", async () => {
    const url = `${baseUrl()}/receiver/path?token=receiver-secret-123`;
    const created = await api("/api/webhooks", {
      method: "POST",
      token: editor.token,
      json: { url, events: ["video.succeeded", "video.canceled"] },
    });
    expect(created.status, created.text).toBe(201);
    const { webhookId, secret } = created.body;
    const deleted = await api(`/api/webhooks/${webhookId}`, { method: "DELETE", token: editor.token });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expect((await api(`/api/webhooks/${webhookId}`, { method: "DELETE", token: editor.token })).status).toBe(
      404,
    );

    const host = new URL(url).host;
    for (const [brandId, token] of [
      [sharedBrand, owner.token],
      [editorsOwnBrand, editor.token],
    ]) {
      const entries = (await activityOf(brandId, token)).filter((entry) => entry.subjectId === webhookId);
      expect(entries.map((entry) => entry.action)).toEqual(["webhook.revoked", "webhook.created"]);
      expect(entries[1].details).toEqual({ host, events: ["video.succeeded", "video.canceled"] });
      expect(entries[0].details).toEqual({ host });
      for (const entry of entries) {
        expect(entry).toMatchObject({ actorId: editor.userId, subjectType: "webhook" });
        expect(JSON.stringify(entry)).not.toContain("receiver-secret-123");
        expect(JSON.stringify(entry)).not.toContain(secret);
      }
    }
    expect((await activityOf(ownersOtherBrand)).some((entry) => entry.subjectId === webhookId)).toBe(false);
  });
});
