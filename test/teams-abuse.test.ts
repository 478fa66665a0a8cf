import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invitationPreviewResponse } from "@/lib/contracts/teams";
import { newUser } from "./support/auth";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";

/**
 * The abuse paths around teams, on a server of its own with low invitation limits (5 an hour per owner, 8
 * per brand) and a Telegram that answers every call with a gateway error.
 */
type User = Awaited<ReturnType<typeof newUser>>;
let server: TestServer;
let telegramDown: http.Server;

const call = (
  path: string,
  init: { token?: string; method?: string; json?: unknown; body?: FormData } = {},
) => api(path, { server: server.url, ...init });
const tokenOf = (link: string) => link.split("/invite/")[1];

async function brandOwnedBy(owner: User, others: { user: User; role: string }[] = []) {
  const brand = await call("/api/brands", { method: "POST", token: owner.token, json: { name: "Harbor" } });
  expect(brand.status, brand.text).toBe(201);
  const brandId = brand.body.brandId as string;
  for (const { user, role } of others) {
    const invited = await call(`/api/brands/${brandId}/invitations`, {
      method: "POST",
      token: owner.token,
      json: { email: user.email, role },
    });
    const accepted = await call(`/api/invitations/${tokenOf(invited.body.link)}/accept`, {
      method: "POST",
      token: user.token,
      json: {},
    });
    expect(accepted.status, accepted.text).toBe(200);
  }
  return brandId;
}

const invite = (token: string, brandId: string, email: string) =>
  call(`/api/brands/${brandId}/invitations`, { method: "POST", token, json: { email, role: "viewer" } });

beforeAll(async () => {
  telegramDown = http.createServer((_req, res) => {
    res.writeHead(502, { "content-type": "text/html" }).end("<html>502 Bad Gateway</html>");
  });
  await new Promise<void>((resolve) => telegramDown.listen(0, "127.0.0.1", resolve));
  server = await startTestServer({
    env: {
      RATE_LIMIT_INVITE_PER_HOUR: "5",
      RATE_LIMIT_INVITE_PER_BRAND_PER_HOUR: "8",
      TELEGRAM_API_BASE_URL: `http://127.0.0.1:${(telegramDown.address() as AddressInfo).port}`,
    },
  });
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => telegramDown?.close(resolve));
});

describe("invitation limits", () => {
  it("an owner sends at most 5 an hour, re-sends included: then 429 rate_limited with its headers", async () => {
    const owner = await newUser(server.url);
    const brandId = await brandOwnedBy(owner);
    // Brand creation sent none; the first 4 are new invitations, the 5th a re-send.
    const sent = [];
    for (let i = 0; i < 4; i += 1) sent.push(await invite(owner.token, brandId, `spam-${i}@example.test`));
    expect(sent.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    expect(sent[3].headers.get("x-ratelimit-limit")).toBe("5");
    expect(sent[3].headers.get("x-ratelimit-remaining")).toBe("1");
    const resent = await call(`/api/brands/${brandId}/invitations/${sent[0].body.invitationId}/resend`, {
      method: "POST",
      token: owner.token,
      json: {},
    });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.headers.get("x-ratelimit-remaining")).toBe("0");

    const refused = await invite(owner.token, brandId, "spam-5@example.test");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("5");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    const again = await call(`/api/brands/${brandId}/invitations/${sent[1].body.invitationId}/resend`, {
      method: "POST",
      token: owner.token,
      json: {},
    });
    expect(again.status).toBe(429);
    // Nothing was created past the limit.
    const listed = await call(`/api/brands/${brandId}/invitations`, { token: owner.token });
    expect(listed.body.items.map((item: { email: string }) => item.email)).not.toContain(
      "spam-5@example.test",
    );
  });

  it("a brand takes at most 8 an hour, whichever owners send them; a viewer's refused tries spend nothing", async () => {
    const first = await newUser(server.url);
    const second = await newUser(server.url);
    const viewer = await newUser(server.url);
    // Two invitations (and acceptances) build the team: the brand has spent 2 of its 8.
    const brandId = await brandOwnedBy(first, [
      { user: second, role: "owner" },
      { user: viewer, role: "viewer" },
    ]);
    for (let i = 0; i < 3; i += 1) {
      expect((await invite(viewer.token, brandId, `not-allowed-${i}@example.test`)).status).toBe(403);
    }
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await invite(first.token, brandId, `a-${i}@example.test`)).status);
    for (let i = 0; i < 4; i += 1)
      statuses.push((await invite(second.token, brandId, `b-${i}@example.test`)).status);
    // first: 2 + 3 = 5 of its own 5; the brand: 2 + 3 + 3 = 8, so second's 4th is refused (second has 2 left).
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
  });
});

describe("opening someone else's invitation", () => {
  it("a member is told they are in the brand already, cannot use it, and the invitee still joins", async () => {
    const owner = await newUser(server.url);
    const invitee = await newUser(server.url);
    const brandId = await brandOwnedBy(owner);
    const created = await invite(owner.token, brandId, invitee.email);
    const token = tokenOf(created.body.link);

    const asOwner = await call(`/api/invitations/${token}`, { token: owner.token });
    expect(invitationPreviewResponse.parse(asOwner.body)).toMatchObject({ brandId, yourRole: "owner" });
    const anonymous = await call(`/api/invitations/${token}`);
    expect(anonymous.body.yourRole).toBeNull();
    const asInvitee = await call(`/api/invitations/${token}`, { token: invitee.token });
    expect(asInvitee.body.yourRole).toBeNull();

    const used = await call(`/api/invitations/${token}/accept`, {
      method: "POST",
      token: owner.token,
      json: {},
    });
    expect(used.status).toBe(409);
    expect(used.body.error).toMatchObject({ code: "already_member", details: { brandId, role: "owner" } });

    const joined = await call(`/api/invitations/${token}/accept`, {
      method: "POST",
      token: invitee.token,
      json: {},
    });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toEqual({ brandId, role: "viewer" });

    // Revoking it now is refused as documented: 410 invitation_unavailable, reason accepted.
    const revoked = await call(`/api/brands/${brandId}/invitations/${created.body.invitationId}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(revoked.status).toBe(410);
    expect(revoked.body.error).toMatchObject({
      code: "invitation_unavailable",
      details: { reason: "accepted" },
    });
  });
});

describe("deleting an account over HTTP", () => {
  it("an API key gets 403 session_required, and the account stays", async () => {
    const user = await newUser(server.url);
    const key = await call("/api/keys", { method: "POST", token: user.token, json: { name: "script" } });
    const refused = await call("/api/users/me", {
      method: "DELETE",
      token: key.body.key,
      json: { password: user.password },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("session_required");
    expect((await call("/api/brands", { token: key.body.key })).status).toBe(200);
  });
});

describe("other answers", () => {
  it("connecting Telegram while it answers 502: 503 provider_unavailable with Retry-After", async () => {
    const owner = await newUser(server.url);
    const brandId = await brandOwnedBy(owner);
    const answer = await call("/api/channels", {
      method: "POST",
      token: owner.token,
      json: {
        brandId,
        channel: "telegram",
        botToken: "123456:ABCdefGhIJKlmNoPQRstuVWXyz",
        chatId: "@harbor",
      },
    });
    expect(answer.status, answer.text).toBe(503);
    expect(answer.body.error.code).toBe("provider_unavailable");
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a viewer uploading a file that is no image gets 403 forbidden, like every other upload", async () => {
    const owner = await newUser(server.url);
    const viewer = await newUser(server.url);
    const brandId = await brandOwnedBy(owner, [{ user: viewer, role: "viewer" }]);
    const form = new FormData();
    form.set(
      "file",
      new Blob([new TextEncoder().encode("not an image at all")], { type: "image/png" }),
      "a.png",
    );
    const answer = await call(`/api/brands/${brandId}/avatar`, {
      method: "POST",
      token: viewer.token,
      body: form,
    });
    expect(answer.status, answer.text).toBe(403);
    expect(answer.body.error.code).toBe("forbidden");
  });
});
