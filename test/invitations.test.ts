import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptInvitationResponse,
  invitationLinkResponse,
  invitationListResponse,
  invitationPreviewResponse,
  memberListResponse,
} from "@/lib/contracts/teams";
import { newUser, signIn } from "./support/auth";
import { api } from "./support/http";
import { decodeMail, startSmtpSink } from "./support/smtp-sink";
import { startTestServer, type TestServer } from "./support/test-server";

/**
 * Invitations end to end on a server with SMTP_URL pointing at a real SMTP server (smtp-server on
 * 127.0.0.1): the email nodemailer sends is read back, its link opened, and the person signs up and joins.
 * Its APP_URL is a public name, so links are built on it whatever host a request names.
 */
const APP_URL = "https://studio.example.test";
type User = Awaited<ReturnType<typeof newUser>>;

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: TestServer;
let owner: User;
let brandId: string;

const call = (path: string, init: { token?: string; method?: string; json?: unknown } = {}) =>
  api(path, { server: server.url, ...init });

const tokenOf = (link: string) => link.split("/invite/")[1];

/**
 * POST an invitation to 127.0.0.1 with the Host header a browser would send for `host` (fetch cannot set
 * Host), so the link's host can be checked without resolving any name.
 */
function inviteAs(
  base: string,
  {
    host,
    token,
    brand,
    email,
    headers = {},
  }: {
    host: string;
    token: string;
    brand: string;
    email: string;
    headers?: Record<string, string>;
  },
) {
  return new Promise<{ status: number; link: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: new URL(base).port,
        path: `/api/brands/${brand}/invitations`,
        method: "POST",
        headers: { host, authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, link: JSON.parse(text).link }));
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ email, role: "viewer" }));
  });
}

async function invite(email: string, role = "editor") {
  const response = await call(`/api/brands/${brandId}/invitations`, {
    method: "POST",
    token: owner.token,
    json: { email, role },
  });
  expect(response.status, response.text).toBe(201);
  return invitationLinkResponse.parse(response.body);
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, SMTP_FROM: "Brand Studio <studio@example.test>", APP_URL },
  });
  owner = await newUser(server.url);
  const brand = await call("/api/brands", {
    method: "POST",
    token: owner.token,
    json: { name: "Harbor & Co", tone: "calm", voice: "plain words" },
  });
  brandId = brand.body.brandId;
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe("invitations", () => {
  it("emails a single-use link (text and HTML: brand, inviter, role, expiry); the invitee signs up and joins", async () => {
    const email = `new-${Date.now()}@example.test`;
    const created = await invite(email);
    expect(created).toMatchObject({ email, role: "editor", status: "pending", emailed: true, brandId });
    expect(created.link).toBe(`${APP_URL}/invite/${tokenOf(created.link)}`);
    const expires = new Date(created.expiresAt).getTime() - new Date(created.createdAt).getTime();
    expect(expires).toBe(7 * 86_400_000);

    const mail = await smtp.mailTo(email);
    expect(mail.from).toBe("studio@example.test");
    const body = decodeMail(mail.raw);
    expect(body).toMatch(/Content-Type: text\/plain/);
    expect(body).toMatch(/Content-Type: text\/html/);
    expect(body).toContain(created.link);
    expect(body).toContain(`href="${created.link}"`);
    expect(body).toContain("Harbor &#38; Co"); // escaped in the HTML part
    expect(body).toContain('"Harbor & Co"'); // as written in the text part
    expect(body).toContain("Test User");
    expect(body).toContain("as editor");
    expect(body).toContain(created.expiresAt.slice(0, 16).replace("T", " "));

    const token = tokenOf(created.link);
    const preview = await call(`/api/invitations/${token}`);
    expect(preview.status, preview.text).toBe(200);
    expect(invitationPreviewResponse.parse(preview.body)).toMatchObject({
      brandName: "Harbor & Co",
      email,
      role: "editor",
      invitedBy: "Test User",
    });

    // The listing never shows the link or the token.
    const listed = await call(`/api/brands/${brandId}/invitations`, { token: owner.token });
    expect(listed.text).not.toContain(token);
    expect(invitationListResponse.parse(listed.body).items[0]).toMatchObject({ email, status: "pending" });

    // Sign up, sign in, accept.
    const password = "a-long-password-1";
    const signUp = await call("/api/users", { method: "POST", json: { email, password } });
    expect(signUp.status).toBe(201);
    const { accessToken } = await signIn(server.url, email, password);
    const accepted = await call(`/api/invitations/${token}/accept`, {
      method: "POST",
      token: accessToken,
      json: {},
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(acceptInvitationResponse.parse(accepted.body)).toEqual({ brandId, role: "editor" });
    const brand = await call(`/api/brands/${brandId}`, { token: accessToken });
    expect(brand.body.role).toBe("editor");
    const members = memberListResponse.parse(
      (await call(`/api/brands/${brandId}/members`, { token: accessToken })).body,
    );
    expect(members.items.map((member) => [member.email, member.role])).toEqual([
      [owner.email, "owner"],
      [email, "editor"],
    ]);

    // A used link says so, to anyone.
    const again = await call(`/api/invitations/${token}/accept`, {
      method: "POST",
      token: owner.token,
      json: {},
    });
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({
      code: "invitation_unavailable",
      details: { reason: "accepted" },
    });
    expect((await call(`/api/invitations/${token}`)).body.error.details).toEqual({ reason: "accepted" });
  });

  it("a revoked link says it was revoked; a resend replaces the link and the old one stops", async () => {
    const first = await invite(`twice-${Date.now()}@example.test`, "viewer");
    const resent = await call(`/api/brands/${brandId}/invitations/${first.invitationId}/resend`, {
      method: "POST",
      token: owner.token,
      json: {},
    });
    expect(resent.status, resent.text).toBe(200);
    const second = invitationLinkResponse.parse(resent.body);
    expect(second.link).not.toBe(first.link);
    expect((await call(`/api/invitations/${tokenOf(first.link)}`)).status).toBe(404);
    expect((await call(`/api/invitations/${tokenOf(second.link)}`)).status).toBe(200);

    const revoked = await call(`/api/brands/${brandId}/invitations/${first.invitationId}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    const stranger = await newUser(server.url);
    const accept = await call(`/api/invitations/${tokenOf(second.link)}/accept`, {
      method: "POST",
      token: stranger.token,
      json: {},
    });
    expect(accept.status).toBe(410);
    expect(accept.body.error.details).toEqual({ reason: "revoked" });
    expect((await call(`/api/brands/${brandId}`, { token: stranger.token })).status).toBe(404);
    const resendRevoked = await call(`/api/brands/${brandId}/invitations/${first.invitationId}/resend`, {
      method: "POST",
      token: owner.token,
      json: {},
    });
    expect(resendRevoked.body.error.code).toBe("invitation_unavailable");
  });

  it("a second invite of the same email, in any case, re-issues the open invitation instead of adding one", async () => {
    const stamp = Date.now();
    const first = await invite(`Dup-${stamp}@Example.TEST`, "viewer");
    expect(first.email).toBe(`dup-${stamp}@example.test`);
    const again = await call(`/api/brands/${brandId}/invitations`, {
      method: "POST",
      token: owner.token,
      json: { email: `DUP-${stamp}@example.test`, role: "editor" },
    });
    expect(again.status, again.text).toBe(200);
    const second = invitationLinkResponse.parse(again.body);
    expect(second).toMatchObject({ invitationId: first.invitationId, role: "editor", status: "pending" });
    expect(second.link).not.toBe(first.link);
    expect((await call(`/api/invitations/${tokenOf(first.link)}`)).status).toBe(404);
    expect((await call(`/api/invitations/${tokenOf(second.link)}`)).body.role).toBe("editor");
    const listed = invitationListResponse.parse(
      (await call(`/api/brands/${brandId}/invitations`, { token: owner.token })).body,
    );
    expect(listed.items.filter((item) => item.email === first.email)).toHaveLength(1);
    const activity = await call(`/api/brands/${brandId}/activity`, { token: owner.token });
    const actions = activity.body.items
      .filter((entry: { subjectId: string }) => entry.subjectId === first.invitationId)
      .map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(["invitation.resent", "invitation.created"]);

    // Once revoked, the email may be invited afresh: a new invitation.
    await call(`/api/brands/${brandId}/invitations/${first.invitationId}`, {
      method: "DELETE",
      token: owner.token,
    });
    const fresh = await invite(first.email);
    expect(fresh.invitationId).not.toBe(first.invitationId);
  });

  it("two invites of one email at once leave one open invitation (the database's unique index)", async () => {
    const email = `race-${Date.now()}@example.test`;
    const answers = await Promise.all(
      [email, email.toUpperCase(), email].map((address) =>
        call(`/api/brands/${brandId}/invitations`, {
          method: "POST",
          token: owner.token,
          json: { email: address, role: "viewer" },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort(), answers.map((a) => a.text).join("\n")).toEqual([
      200, 200, 201,
    ]);
    expect(new Set(answers.map((answer) => answer.body.invitationId)).size).toBe(1);
    const listed = invitationListResponse.parse(
      (await call(`/api/brands/${brandId}/invitations`, { token: owner.token })).body,
    );
    expect(listed.items.filter((item) => item.email === email)).toHaveLength(1);
  });

  it("builds the link on APP_URL when it is set, whatever host the request names", async () => {
    const sent = await inviteAs(server.url, {
      host: `localhost:${new URL(server.url).port}`,
      token: owner.token,
      brand: brandId,
      email: `host-${Date.now()}@example.test`,
    });
    expect(sent.status).toBe(201);
    expect(sent.link).toMatch(new RegExp(`^${APP_URL}/invite/[A-Za-z0-9_-]{40,}$`));
  });

  it("refuses to invite a member again, a malformed email or role, and an unknown link", async () => {
    const self = await call(`/api/brands/${brandId}/invitations`, {
      method: "POST",
      token: owner.token,
      json: { email: owner.email.toUpperCase(), role: "viewer" },
    });
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe("invalid_request");
    expect(self.body.error.details[0]).toEqual({
      path: "email",
      message: `${owner.email} is already a member of this brand.`,
    });
    // A member who joined through an invitation is refused the same way, and no invitation is made.
    const joined = await newUser(server.url);
    const joinedInvite = await invite(joined.email);
    await call(`/api/invitations/${tokenOf(joinedInvite.link)}/accept`, {
      method: "POST",
      token: joined.token,
      json: {},
    });
    const member = await call(`/api/brands/${brandId}/invitations`, {
      method: "POST",
      token: owner.token,
      json: { email: joined.email.toUpperCase(), role: "owner" },
    });
    expect(member.status).toBe(400);
    expect(member.body.error.details[0].path).toBe("email");
    const after = invitationListResponse.parse(
      (await call(`/api/brands/${brandId}/invitations`, { token: owner.token })).body,
    );
    expect(after.items.filter((item) => item.email === joined.email).map((item) => item.status)).toEqual([
      "accepted",
    ]);
    for (const json of [{ email: "nope", role: "viewer" }, { email: "a@example.test", role: "admin" }, {}]) {
      const bad = await call(`/api/brands/${brandId}/invitations`, {
        method: "POST",
        token: owner.token,
        json,
      });
      expect(bad.status, JSON.stringify(json)).toBe(400);
      expect(bad.body.error.code).toBe("invalid_request");
    }
    expect((await call(`/api/invitations/${"x".repeat(43)}`)).status).toBe(404);
    expect((await call("/api/invitations/short")).status).toBe(404);
  });
});

describe("the invitation link without APP_URL", () => {
  let bare: TestServer;
  let bareOwner: User;
  let bareBrand: string;

  beforeAll(async () => {
    // No NEXTAUTH_URL (APP_URL's default) and no APP_URL: links take the request's own host.
    bare = await startTestServer({ env: { NEXTAUTH_URL: undefined, APP_URL: undefined } });
    bareOwner = await newUser(bare.url);
    const brand = await api("/api/brands", {
      server: bare.url,
      method: "POST",
      token: bareOwner.token,
      json: { name: "Bare" },
    });
    bareBrand = brand.body.brandId;
  });

  afterAll(async () => {
    await bare?.stop();
  });

  it("is built on the Host the request was sent to (not the name the server listens on)", async () => {
    const port = new URL(bare.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `studio.lan:${port}`]) {
      const sent = await inviteAs(bare.url, {
        host,
        token: bareOwner.token,
        brand: bareBrand,
        email: `host-${Date.now()}@example.test`,
      });
      expect(sent.status).toBe(201);
      expect(sent.link).toMatch(new RegExp(`^http://${host}/invite/[A-Za-z0-9_-]{40,}$`));
    }
    // https only when the proxy says so (Next's own rule for the request's scheme).
    const forwarded = await inviteAs(bare.url, {
      host: `127.0.0.1:${port}`,
      token: bareOwner.token,
      brand: bareBrand,
      email: `proto-${Date.now()}@example.test`,
      headers: { "x-forwarded-proto": "https" },
    });
    expect(forwarded.link).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${port}/invite/`));
  });
});

describe("deleting an account", () => {
  it("needs the password, refuses the last owner of a brand, and stops the account's API key at once", async () => {
    const user = await newUser(server.url);
    const key = await call("/api/keys", { method: "POST", token: user.token, json: { name: "script" } });
    const apiKey = key.body.key as string;
    // Used once, so this process caches it.
    expect((await call("/api/brands", { token: apiKey })).status).toBe(200);

    const wrong = await call("/api/users/me", {
      method: "DELETE",
      token: user.token,
      json: { password: "not-it-at-all" },
    });
    expect(wrong.status).toBe(400);
    const brand = await call("/api/brands", { method: "POST", token: user.token, json: { name: "Mine" } });
    const lastOwner = await call("/api/users/me", {
      method: "DELETE",
      token: user.token,
      json: { password: user.password },
    });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error).toMatchObject({
      code: "last_owner",
      details: { brandId: brand.body.brandId },
    });

    // Hand the brand over, then leave.
    const heir = await newUser(server.url);
    const handover = await call(`/api/brands/${brand.body.brandId}/invitations`, {
      method: "POST",
      token: user.token,
      json: { email: heir.email, role: "owner" },
    });
    await call(`/api/invitations/${tokenOf(handover.body.link)}/accept`, {
      method: "POST",
      token: heir.token,
      json: {},
    });
    const deleted = await call("/api/users/me", {
      method: "DELETE",
      token: user.token,
      json: { password: user.password },
    });
    expect(deleted.status, deleted.text).toBe(204);
    expect((await call("/api/brands", { token: apiKey })).status).toBe(401);
    expect((await call("/api/brands", { token: user.token })).status).toBe(401);
    const kept = await call(`/api/brands/${brand.body.brandId}/members`, { token: heir.token });
    expect(kept.body.items.map((member: { email: string }) => member.email)).toEqual([heir.email]);
  });
});
