import { hkdfSync } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_LOGIN } from "@/db/seed";
import { listApiKeysResponse } from "@/lib/contracts/keys";
import { newUser, signIn, signInAsDemo, timeWrongPassword } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";

/** Signs an access token the way the server does, with any secret and any times, to forge bad ones. */
async function forgeToken({
  secret,
  userId,
  issuedAt = Math.floor(Date.now() / 1000),
  expiresAt = issuedAt + 900,
}: {
  secret: string;
  userId: string;
  issuedAt?: number;
  expiresAt?: number;
}) {
  const key = new Uint8Array(hkdfSync("sha256", secret, "", "brand-studio access token v1", 32));
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer("brand-studio")
    .setAudience("brand-studio-api")
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

function expectUnauthorized(response: Awaited<ReturnType<typeof api>>) {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
  expect(response.body.error).toMatchObject({ code: "unauthorized", retryable: false });
}

describe("sign-up: POST /api/users", () => {
  it("creates an account, then answers email_taken for the same email in any case", async () => {
    const email = `Sign.Up-${Date.now()}@Example.test`;
    const created = await api("/api/users", {
      method: "POST",
      json: { email, password: "long-enough-1", name: "Ana" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: email.toLowerCase(), name: "Ana" });
    expect(created.body.userId).toMatch(/^usr_/);
    expect(created.headers.get("location")).toBe(`/api/users/${created.body.userId}`);

    const again = await api("/api/users", {
      method: "POST",
      json: { email: email.toUpperCase(), password: "other-pass-2" },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "email_taken", retryable: false });
  });

  it("rejects a bad email and a short password with field details", async () => {
    const response = await api("/api/users", {
      method: "POST",
      json: { email: "not-an-email", password: "short" },
    });
    expect(response.status).toBe(400);
    const paths = response.body.error.details.map((issue: { path: string }) => issue.path).sort();
    expect(paths).toEqual(["email", "password"]);
  });
});

describe("sign-in over plain HTTP", () => {
  it("goes csrf → credentials callback → session and yields a 15-minute access token", async () => {
    const before = Date.now();
    const { accessToken, session } = await signInAsDemo(baseUrl());
    expect(accessToken.split(".")).toHaveLength(3);
    expect(session.user?.email).toBe(DEMO_LOGIN.email);
    const lifetime = (session.accessTokenExpires ?? 0) - before;
    expect(lifetime).toBeGreaterThan(14 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60 * 1000 + 2000);
    expect((await api("/api/keys", { token: accessToken })).status).toBe(200);
  });

  it("gives no token for a wrong password or an unknown email", async () => {
    await expect(signIn(baseUrl(), DEMO_LOGIN.email, "wrong-password")).rejects.toThrow(/Sign-in failed/);
    await expect(signIn(baseUrl(), "nobody@example.test", "whatever-123")).rejects.toThrow(/Sign-in failed/);
  });
});

describe("bearer tokens", () => {
  let user: Awaited<ReturnType<typeof newUser>>;
  beforeAll(async () => {
    user = await newUser(baseUrl());
  });

  it("answers 401 in the envelope with no token, a malformed header, or a session cookie alone", async () => {
    expectUnauthorized(await api("/api/keys"));
    expectUnauthorized(await api("/api/keys", { headers: { authorization: "Basic abc" } }));
    expectUnauthorized(await api("/api/keys", { headers: { authorization: "Bearer" } }));
    const { cookie } = await signInAsDemo(baseUrl());
    expectUnauthorized(await api("/api/keys", { headers: { cookie } }));
  });

  it("rejects a tampered signature, alg none, an expired token and one signed with another secret", async () => {
    const secret = inject("authSecret");
    const valid = await forgeToken({ secret, userId: user.userId });
    expect((await api("/api/keys", { token: valid })).status).toBe(200);

    const [header, payload, signature] = valid.split(".");
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    expectUnauthorized(await api("/api/keys", { token: `${header}.${payload}.${flipped}` }));

    const unsignedHeader = base64url({ alg: "none", typ: "JWT" });
    expectUnauthorized(await api("/api/keys", { token: `${unsignedHeader}.${payload}.` }));

    const past = Math.floor(Date.now() / 1000) - 3600;
    expectUnauthorized(
      await api("/api/keys", {
        token: await forgeToken({ secret, userId: user.userId, issuedAt: past, expiresAt: past + 900 }),
      }),
    );
    expectUnauthorized(
      await api("/api/keys", { token: await forgeToken({ secret: "another-secret", userId: user.userId }) }),
    );
  });
});

describe("API keys", () => {
  it("creates a key shown once, accepts it as a bearer token, lists only its hint, and stops it on revoke", async () => {
    const { token } = await newUser(baseUrl());
    const created = await api("/api/keys", { method: "POST", token, json: { name: "CI script" } });
    expect(created.status).toBe(201);
    const key: string = created.body.key;
    expect(key).toMatch(/^bsk_[A-Za-z0-9_-]{32}$/);
    expect(created.body.hint).toBe(`bsk_…${key.slice(-4)}`);

    const viaKey = await api("/api/keys", { token: key });
    expect(viaKey.status).toBe(200);
    const listed = listApiKeysResponse.parse(viaKey.body);
    expect(listed.items.map((item) => item.keyId)).toEqual([created.body.keyId]);
    expect(viaKey.text).not.toContain(key);
    expect(listed.items[0].lastUsedAt).not.toBeNull();

    const revoked = await api(`/api/keys/${created.body.keyId}`, { method: "DELETE", token });
    expect(revoked.status).toBe(204);
    expectUnauthorized(await api("/api/keys", { token: key }));
    expect((await api(`/api/keys/${created.body.keyId}`, { method: "DELETE", token })).status).toBe(404);
  });

  it("answers 404 for another user's key", async () => {
    const owner = await newUser(baseUrl());
    const other = await newUser(baseUrl());
    const created = await api("/api/keys", { method: "POST", token: owner.token, json: { name: "mine" } });
    const response = await api(`/api/keys/${created.body.keyId}`, { method: "DELETE", token: other.token });
    expect(response.status).toBe(404);
    expect((await api("/api/keys", { token: created.body.key })).status).toBe(200);
  });
});

describe("secrets and settings on a dedicated server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ALLOW_SIGNUP: "false" } });
  });
  afterAll(() => server.stop());

  it("never writes an API key or a password to the log", async () => {
    const { accessToken } = await signInAsDemo(server.url);
    const created = await api("/api/keys", {
      method: "POST",
      server: server.url,
      token: accessToken,
      json: { name: "log check" },
    });
    await api("/api/keys", { server: server.url, token: created.body.key });
    await api("/api/keys", { server: server.url, headers: { authorization: `Bearer ${created.body.key}x` } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logs = server.logs();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(created.body.key);
    expect(logs).not.toContain(DEMO_LOGIN.password);
    expect(logs).not.toContain(accessToken);
  });

  it("turns sign-up off with ALLOW_SIGNUP=false", async () => {
    const response = await api("/api/users", {
      method: "POST",
      server: server.url,
      json: { email: "late@example.test", password: "long-enough-1" },
    });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("not_found");
    expect((await fetch(`${server.url}/signup`)).status).toBe(404);
  });
});

describe("sign-in timing", () => {
  it("costs the same whether or not the email exists (ratio of medians, same run)", async () => {
    // Known and unknown alternate, so a busy moment of the machine falls on both alike; only the credentials
    // POST is timed (the CSRF round trip before it is the same for both and would dilute the difference).
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timeWrongPassword(baseUrl(), DEMO_LOGIN.email));
      unknown.push(await timeWrongPassword(baseUrl(), "no-such-user@example.test"));
    }
    const median = (samples: number[]) => samples.sort((a, b) => a - b)[2];
    // Without the dummy hash an unknown email answers several times faster than a known one.
    expect(median(unknown) / median(known)).toBeGreaterThan(0.6);
  });
});
