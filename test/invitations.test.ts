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
 */
type User = Awaited<ReturnType<typeof newUser>>;

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: TestServer;
let owner: User;
let brandId: string;

const call = (path: string, init: { token?: string; method?: string; json?: unknown } = {}) =>
  api(path, { server: server.url, ...init });

const tokenOf = (link: string) => link.split("/invite/")[1];

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
    env: { SMTP_URL: smtp.url, SMTP_FROM: "Brand Studio <studio@example.test>" },
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
    expect(created.link).toBe(`${server.url}/invite/${tokenOf(created.link)}`);
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

  it("refuses to invite a member again, a malformed email or role, and an unknown link", async () => {
    const self = await call(`/api/brands/${brandId}/invitations`, {
      method: "POST",
      token: owner.token,
      json: { email: owner.email.toUpperCase(), role: "viewer" },
    });
    expect(self.status).toBe(400);
    expect(self.body.error.details[0].path).toBe("email");
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
