import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrandRole } from "@/lib/contracts/enums";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";

// Generate post reads the brand through a per-process cache (lib/brands/brand-cache.ts). Whatever changes
// the brand or the caller's membership must reach the very next create in the process that made the change,
// and every other process as soon as the change is heard; each test first makes the cache hold the brand.

type User = Awaited<ReturnType<typeof newUser>>;

const TOPIC = "Our new seasonal roast, out this Friday";
const brief = (brandId: string) => ({ brandId, channel: "linkedin", goal: "awareness", topic: TOPIC });
const create = (server: string, user: User, brandId: string) =>
  api("/api/content/create", { server, token: user.token, method: "POST", json: brief(brandId) });

async function newBrand(server: string, owner: User) {
  const brand = await api("/api/brands", {
    server,
    token: owner.token,
    method: "POST",
    json: { name: "Cached Brand", tone: "warm and direct", voice: "Short sentences, concrete detail." },
  });
  expect(brand.status, brand.text).toBe(201);
  return brand.body.brandId as string;
}

async function addMember(server: string, owner: User, brandId: string, role: BrandRole) {
  const user = await newUser(server);
  const invited = await api(`/api/brands/${brandId}/invitations`, {
    server,
    token: owner.token,
    method: "POST",
    json: { email: user.email, role },
  });
  expect(invited.status, invited.text).toBe(201);
  const token = (invited.body.link as string).split("/invite/")[1];
  const accepted = await api(`/api/invitations/${token}/accept`, {
    server,
    token: user.token,
    method: "POST",
    json: {},
  });
  expect(accepted.status, accepted.text).toBe(200);
  return user;
}

const setBannedWords = (server: string, owner: User, brandId: string, bannedWords: string[]) =>
  api(`/api/brands/${brandId}`, { server, token: owner.token, method: "PATCH", json: { bannedWords } });

async function expectCreates(server: string, user: User, brandId: string, times = 2) {
  for (let i = 0; i < times; i++) {
    const created = await create(server, user, brandId);
    expect(created.status, created.text).toBe(201);
  }
}

/** The user with an API key instead of their access token: keys work on every server, tokens on the one that signed them. */
async function withApiKey(server: string, user: User): Promise<User> {
  const created = await api("/api/keys", {
    server,
    token: user.token,
    method: "POST",
    json: { name: "cache test" },
  });
  expect(created.status, created.text).toBe(201);
  return { ...user, token: created.body.key as string };
}

/** Creates on `server` until the answer is not 201 (the change was heard), for at most ten seconds. */
async function firstRefusal(server: string, user: User, brandId: string) {
  const deadline = Date.now() + 10_000;
  let last = await create(server, user, brandId);
  while (last.status === 201 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await create(server, user, brandId);
  }
  return last;
}

describe("brand cache: changes in the same process", () => {
  let owner: User;
  let brandId: string;

  beforeAll(async () => {
    owner = await newUser(baseUrl());
    brandId = await newBrand(baseUrl(), owner);
  });

  it("a banned word added to the brand stops the very next create, and removing it lets creates through again", async () => {
    await expectCreates(baseUrl(), owner, brandId);
    const banned = await setBannedWords(baseUrl(), owner, brandId, ["roast"]);
    expect(banned.status, banned.text).toBe(200);
    const refused = await create(baseUrl(), owner, brandId);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.code).toBe("moderation_required");
    expect(refused.body.error.details.terms).toEqual(["roast"]);

    expect((await setBannedWords(baseUrl(), owner, brandId, [])).status).toBe(200);
    await expectCreates(baseUrl(), owner, brandId, 1);
  });

  it("a member demoted to viewer is refused on their next create, and a removed member gets 404", async () => {
    const member = await addMember(baseUrl(), owner, brandId, "editor");
    await expectCreates(baseUrl(), member, brandId);
    const demoted = await api(`/api/brands/${brandId}/members/${member.userId}`, {
      token: owner.token,
      method: "PATCH",
      json: { role: "viewer" },
    });
    expect(demoted.status, demoted.text).toBe(200);
    const forbidden = await create(baseUrl(), member, brandId);
    expect(forbidden.status, forbidden.text).toBe(403);
    expect(forbidden.body.error.code).toBe("forbidden");

    const editorAgain = await api(`/api/brands/${brandId}/members/${member.userId}`, {
      token: owner.token,
      method: "PATCH",
      json: { role: "editor" },
    });
    expect(editorAgain.status).toBe(200);
    await expectCreates(baseUrl(), member, brandId);
    const removed = await api(`/api/brands/${brandId}/members/${member.userId}`, {
      token: owner.token,
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const gone = await create(baseUrl(), member, brandId);
    expect(gone.status, gone.text).toBe(404);
    expect(gone.body.error.code).toBe("not_found");
  });
});

// Two web processes need PostgreSQL (PGlite is one process); this runs in the PostgreSQL pass.
describe.skipIf(!process.env.DATABASE_URL)("brand cache: changes made elsewhere (PostgreSQL)", () => {
  let first: TestServer;
  let second: TestServer;
  let owner: User;
  let brandId: string;

  beforeAll(async () => {
    first = await startTestServer();
    second = await startTestServer({ env: { DATABASE_URL: first.databaseUrl, WORKER: "off" } });
    owner = await withApiKey(first.url, await newUser(first.url));
    brandId = await newBrand(first.url, owner);
  }, 180_000);
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it("a banned word added through one server stops creates on the other, well before an entry would expire", async () => {
    await expectCreates(second.url, owner, brandId, 3);
    expect((await setBannedWords(first.url, owner, brandId, ["roast"])).status).toBe(200);
    const refused = await firstRefusal(second.url, owner, brandId);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.details.terms).toEqual(["roast"]);
    expect((await setBannedWords(first.url, owner, brandId, [])).status).toBe(200);
    await expectCreates(first.url, owner, brandId, 1);
  });

  it("a change an operator makes in SQL reaches every server's cache", async () => {
    await expectCreates(first.url, owner, brandId);
    await expectCreates(second.url, owner, brandId);
    const sql = postgres(first.databaseUrl as string, { max: 1, onnotice: () => {} });
    try {
      await sql`update brands set banned_words = '["roast"]'::jsonb where id = ${brandId}`;
    } finally {
      await sql.end();
    }
    for (const server of [first.url, second.url]) {
      const refused = await firstRefusal(server, owner, brandId);
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.error.code).toBe("moderation_required");
    }
  });

  it("a member removed through one server gets 404 from the other", async () => {
    const member = await withApiKey(first.url, await addMember(first.url, owner, brandId, "editor"));
    // Cleared through the second server, which drops its own entry before it answers: no wait for NOTIFY.
    expect((await setBannedWords(second.url, owner, brandId, [])).status).toBe(200);
    await expectCreates(second.url, member, brandId);
    const removed = await api(`/api/brands/${brandId}/members/${member.userId}`, {
      server: first.url,
      token: owner.token,
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const gone = await firstRefusal(second.url, member, brandId);
    expect(gone.status, gone.text).toBe(404);
  });
});
