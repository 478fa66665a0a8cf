import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, signIn } from "./support/auth";
import { type FakeLinkedIn, startFakeLinkedIn } from "./support/fake-linkedin";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";

/**
 * Starting a channel connection is a deliberate act on the app's own page: a link or a cross-site GET that
 * carries only the session cookie connects nothing, and the POST the page sends is refused from another site.
 */
let linkedin: FakeLinkedIn;
let server: TestServer;
let user: Awaited<ReturnType<typeof newUser>>;
let cookie: string;
let brandId: string;

beforeAll(async () => {
  linkedin = await startFakeLinkedIn();
  server = await startTestServer({
    env: {
      LINKEDIN_CLIENT_ID: linkedin.clientId,
      LINKEDIN_CLIENT_SECRET: linkedin.clientSecret,
      LINKEDIN_AUTH_BASE_URL: linkedin.url,
      LINKEDIN_API_BASE_URL: linkedin.url,
    },
  });
  user = await newUser(server.url);
  ({ cookie } = await signIn(server.url, user.email, user.password));
  const brand = await api("/api/brands", {
    server: server.url,
    token: user.token,
    method: "POST",
    json: { name: "Northwind" },
  });
  brandId = brand.body.brandId;
});

afterAll(async () => {
  await server?.stop();
  await linkedin?.close();
});

const start = (init: { method: string; headers?: Record<string, string>; token?: string; json?: unknown }) =>
  api(`/api/channels/oauth/linkedin/start${init.method === "GET" ? `?brandId=${brandId}` : ""}`, {
    server: server.url,
    redirect: "manual",
    ...init,
  });

describe("starting a channel connection", () => {
  it("a cross-site GET with the session cookie goes to the brand's page, never to LinkedIn", async () => {
    const answer = await start({ method: "GET", headers: { cookie, "sec-fetch-site": "cross-site" } });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/brands/${brandId}?connect=linkedin`);
  });

  it("the page's POST (same-origin, the session's access token) answers LinkedIn's authorize URL", async () => {
    const answer = await start({
      method: "POST",
      token: user.token,
      headers: { "sec-fetch-site": "same-origin", origin: server.url },
      json: { brandId },
    });
    expect(answer.status, answer.text).toBe(200);
    const url = new URL(answer.body.authorizeUrl);
    expect(url.origin).toBe(new URL(linkedin.url).origin);
    expect(url.searchParams.get("state")).toBeTruthy();
  });

  it("a POST from another site, or with another Origin, is refused 403 cross_site_request", async () => {
    const tries: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://attacker.example" },
    ];
    for (const headers of tries) {
      const answer = await start({ method: "POST", token: user.token, headers, json: { brandId } });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body.error.code).toBe("cross_site_request");
    }
  });

  it("the session cookie alone does not start one (the POST takes the bearer token)", async () => {
    const answer = await start({
      method: "POST",
      headers: { cookie, "sec-fetch-site": "same-origin" },
      json: { brandId },
    });
    expect(answer.status).toBe(401);
  });
});
