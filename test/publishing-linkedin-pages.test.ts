import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeLinkedIn, startFakeLinkedIn } from "./support/fake-linkedin";
import { api } from "./support/http";
import { authorizeOAuth, followOAuthCallback } from "./support/oauth-consent";
import { newImagePost, settledPublication } from "./support/publication-api";
import { startTestServer, type TestServer } from "./support/test-server";

// LinkedIn company pages (LINKEDIN_ORGANIZATIONS=true): the consent asks for the page scopes, the member's
// pages they may post as are connected beside them, and a page's posts and images are the organization's.
// Against the real server and the fake LinkedIn, whose member is an administrator of "Northwind Coffee",
// an analyst of "Northwind Careers" and has only requested a role on "Northwind Roastery".

const PAGE = "urn:li:organization:2414183";

let linkedin: FakeLinkedIn;
let server: TestServer;
let token: string;
let brandId: string;

const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
  api(p, { server: server.url, token, ...init });

/**
 * Consent, then the brand's choice page: LinkedIn's member and the pages found are listed (nothing is
 * connected yet), and the accounts `pick` names (all by default) are connected.
 */
async function connect(
  brand = brandId,
  pick: (found: { externalId: string; kind: string }[]) => string[] = (found) =>
    found.map((a) => a.externalId),
) {
  const { authorizeUrl, callback } = await authorizeOAuth("linkedin", {
    server: server.url,
    token,
    brandId: brand,
  });
  const done = await followOAuthCallback(server.url, token, callback);
  expect(done.status, done.text).toBe(303);
  expect(done.headers.get("location")).toBe(`/brands/${brand}/connect/linkedin`);
  const cookie = (done.headers.get("set-cookie") ?? "").split(";")[0];
  expect(cookie).toMatch(/^bs_linkedin_choice=v1\./);
  const found = await call("/api/channels/oauth/linkedin/choice", { headers: { cookie } });
  expect(found.status, found.text).toBe(200);
  expect(found.text).not.toMatch(/AQV|AQX/);
  const chosen = await call("/api/channels/oauth/linkedin/choice", {
    method: "POST",
    headers: { cookie },
    json: { externalIds: pick(found.body.accounts) },
  });
  expect(chosen.status, chosen.text).toBe(200);
  return {
    authorizeUrl,
    found: found.body.accounts as { externalId: string; accountName: string; kind: string }[],
    location: `/brands/${chosen.body.brandId}?connected=${chosen.body.channelIds[0]}`,
  };
}

async function channels() {
  const list = await call(`/api/channels?brandId=${brandId}`);
  expect(list.status).toBe(200);
  return list.body.items as { channelId: string; accountName: string; [key: string]: unknown }[];
}

/** A LinkedIn post with one generated image, published to the connection named `accountName`. */
async function publishTo(accountName: string, caption: string) {
  const channel = (await channels()).find((item) => item.accountName === accountName);
  expect(channel, accountName).toBeDefined();
  const postId = await newImagePost(call, { brandId, channel: "linkedin", caption, images: 1 });
  const publication = await call(`/api/posts/${postId}/publications`, {
    method: "POST",
    json: { channelId: channel?.channelId },
  });
  expect(publication.status, publication.text).toBe(202);
  return settledPublication(call, publication.body.publicationId, 30_000);
}

beforeAll(async () => {
  linkedin = await startFakeLinkedIn();
  server = await startTestServer({
    env: {
      LINKEDIN_CLIENT_ID: linkedin.clientId,
      LINKEDIN_CLIENT_SECRET: linkedin.clientSecret,
      LINKEDIN_AUTH_BASE_URL: linkedin.url,
      LINKEDIN_API_BASE_URL: linkedin.url,
      LINKEDIN_ORGANIZATIONS: "true",
      PUBLISH_TIMEOUT_MS: "4000",
    },
  });
  ({ token } = await newUser(server.url));
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "Northwind", tone: "warm and direct", voice: "short sentences" },
  });
  brandId = brand.body.brandId;
});

afterAll(async () => {
  await server?.stop();
  await linkedin?.close();
});

describe("LinkedIn company pages", () => {
  it("lists the member and the pages found, connects nothing before the choice, and only what is chosen", async () => {
    const other = await call("/api/brands", { method: "POST", json: { name: "Northwind Careers" } });
    const otherId = other.body.brandId as string;
    const { authorizeUrl, callback } = await authorizeOAuth("linkedin", {
      server: server.url,
      token,
      brandId: otherId,
    });
    expect(authorizeUrl.searchParams.get("state")).toBeTruthy();
    await followOAuthCallback(server.url, token, callback);
    const list = async () =>
      (await call(`/api/channels?brandId=${otherId}`)).body.items as { accountName: string }[];
    expect(await list()).toEqual([]);

    const { found } = await connect(otherId, (accounts) =>
      accounts.filter((account) => account.kind === "page").map((account) => account.externalId),
    );
    expect(found.map(({ accountName, kind }) => ({ accountName, kind }))).toEqual([
      { accountName: "Ada Marketer", kind: "member" },
      { accountName: "Northwind Coffee", kind: "page" },
    ]);
    expect((await list()).map((item) => item.accountName)).toEqual(["Northwind Coffee"]);
    // The choice is used up: the cookie was cleared, and without it there is nothing to choose from.
    const again = await call("/api/channels/oauth/linkedin/choice");
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("oauth_state_invalid");
  });

  it("asks for the page scopes, then connects the member and each page they may post as", async () => {
    const { authorizeUrl, location } = await connect();
    expect(authorizeUrl.searchParams.get("scope")).toBe(
      "openid profile w_member_social r_organization_admin w_organization_social",
    );
    const byName = (a: { accountName: string }, b: { accountName: string }) =>
      a.accountName.localeCompare(b.accountName);
    const list = (await channels()).sort(byName);
    // The member, and the page they administer; not the page where they are an analyst, nor the one where
    // their role is only requested.
    expect(
      list.map(({ accountName, accountHandle, channel, status }) => ({
        accountName,
        accountHandle,
        channel,
        status,
      })),
    ).toEqual([
      { accountName: "Ada Marketer", accountHandle: null, channel: "linkedin", status: "active" },
      {
        accountName: "Northwind Coffee",
        accountHandle: "linkedin.com/company/northwind-coffee",
        channel: "linkedin",
        status: "active",
      },
    ]);
    // The browser comes back to the member's connection.
    expect(location).toBe(`/brands/${brandId}?connected=${list[0].channelId}`);

    // Connecting again updates the same two connections.
    await connect();
    expect((await channels()).sort(byName).map((item) => item.channelId)).toEqual(
      list.map((item) => item.channelId),
    );
    expect(JSON.stringify(await channels())).not.toMatch(/AQV|AQX/);
  });

  it("publishes as the page: the image is uploaded for the organization and the post's author is the page", async () => {
    const before = linkedin.posts.length;
    const done = await publishTo(
      "Northwind Coffee",
      "Fresh from our roaster, for everyone who follows the page.",
    );
    expect(done.status, JSON.stringify(done)).toBe("published");
    expect(linkedin.posts).toHaveLength(before + 1);
    const sent = linkedin.posts.at(-1);
    expect(sent?.author).toBe(PAGE);
    expect(sent?.images).toHaveLength(1);
    expect(done.externalId).toBe(sent?.urn);

    // The member's own connection still posts as the member.
    const own = await publishTo("Ada Marketer", "A note from me, not the page.");
    expect(own.status, JSON.stringify(own)).toBe("published");
    expect(linkedin.posts.at(-1)?.author).toBe(`urn:li:person:${linkedin.member.sub}`);
  });

  it("a page the member no longer may post as: failed channel_reauth_required, and reconnecting drops nothing", async () => {
    const before = linkedin.posts.length;
    const page = linkedin.pages[0];
    page.role = "ANALYST";
    try {
      const done = await publishTo("Northwind Coffee", "Nobody will see this one.");
      expect(done.status).toBe("failed");
      expect(done.error).toMatchObject({ code: "channel_reauth_required", retryable: false });
      expect(linkedin.posts).toHaveLength(before);
      const connection = (await channels()).find((item) => item.accountName === "Northwind Coffee");
      expect(connection).toMatchObject({ status: "needs_reconnect" });
    } finally {
      page.role = "ADMINISTRATOR";
    }
    // With the role back, reconnecting through OAuth makes the page's connection active again.
    await connect();
    const connection = (await channels()).find((item) => item.accountName === "Northwind Coffee");
    expect(connection).toMatchObject({ status: "active", statusMessage: null });
    const again = await publishTo("Northwind Coffee", "Back on the page.");
    expect(again.status).toBe("published");
    expect(linkedin.posts.at(-1)?.author).toBe(PAGE);
  });
});
