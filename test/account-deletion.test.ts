import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import {
  activityLog,
  brandMembers,
  brands,
  channelConnections,
  posts,
  publications,
  users,
} from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { hashPassword } from "@/lib/auth/password";
import { findOrCreateOAuthUser } from "@/lib/auth/users";
import { ApiError } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { removeMember } from "@/lib/teams/members";
import { deleteAccount } from "@/lib/users/delete-account";
import { migrateInProcess } from "./support/database";
import { createTestDatabase } from "./support/test-server";

/**
 * DELETE /api/users/me and member removal, in this process against a database of their own (on a PostgreSQL
 * run, a real PostgreSQL with concurrent connections, where two deletes truly race).
 */
const originalEnv = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
let dropDatabase: (() => Promise<void>) | undefined;
const PASSWORD = "correct-horse-battery";
let passwordHash: string;

beforeAll(async () => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bs-delete-"));
  if (originalEnv.DATABASE_URL) {
    const database = await createTestDatabase(originalEnv.DATABASE_URL);
    process.env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  await migrateInProcess();
  passwordHash = await hashPassword(PASSWORD);
});

afterAll(async () => {
  await closeDatabase();
  await dropDatabase?.();
  fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  process.env.DATA_DIR = originalEnv.DATA_DIR;
  process.env.DATABASE_URL = originalEnv.DATABASE_URL;
});

const session = (userId: string): Principal => ({ userId, credential: "access_token" });

async function user() {
  const id = newId("usr");
  await (await getDb()).insert(users).values({ id, email: `${id}@example.test`, passwordHash });
  return { id, email: `${id}@example.test` };
}

async function brandOf(members: { id: string; role: "owner" | "editor" | "viewer" }[]) {
  const db = await getDb();
  const brandId = newId("brd");
  await db.insert(brands).values({ id: brandId, name: "Race & Co" });
  await db
    .insert(brandMembers)
    .values(members.map((member) => ({ brandId, userId: member.id, role: member.role })));
  return brandId;
}

async function channel(brandId: string, by: string, kind: "linkedin-member" | "linkedin-page" | "instagram") {
  const id = newId("chn");
  await (await getDb()).insert(channelConnections).values({
    id,
    brandId,
    channel: kind === "instagram" ? "instagram" : "linkedin",
    externalId: kind === "linkedin-page" ? `urn:li:organization:${id.length}${Date.now()}` : `member-${id}`,
    accountName: kind,
    credentials: "sealed-token",
    createdBy: by,
    connectedBy: by,
  });
  return id;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof ApiError ? error : Promise.reject(error)),
  );

describe("deleting an account", () => {
  it("two last owners deleting at the same instant: one goes, the other is refused last_owner (many rounds)", async () => {
    const db = await getDb();
    for (let round = 0; round < 25; round += 1) {
      const a = await user();
      const b = await user();
      const brandId = await brandOf([
        { id: a.id, role: "owner" },
        { id: b.id, role: "owner" },
      ]);
      const results = await Promise.all(
        [a, b].map((who) =>
          failure(
            deleteAccount({ principal: session(who.id), body: { password: PASSWORD }, ip: `ip-${round}` }),
          ),
        ),
      );
      const refused = results.filter((result) => result !== null);
      expect(refused.map((error) => error?.code)).toEqual(["last_owner"]);
      const owners = await db
        .select()
        .from(brandMembers)
        .where(and(eq(brandMembers.brandId, brandId), eq(brandMembers.role, "owner")));
      expect(owners).toHaveLength(1);
    }
  });

  it("an API key may not delete the account (403 session_required)", async () => {
    const a = await user();
    const error = await failure(
      deleteAccount({
        principal: { userId: a.id, credential: "api_key", apiKeyId: "key_x" },
        body: { password: PASSWORD },
        ip: "198.51.100.1",
      }),
    );
    expect(error?.code).toBe("session_required");
    expect(error?.status).toBe(403);
  });

  it("is throttled like sign-in: after 5 wrong passwords even the right one answers 429 with Retry-After", async () => {
    const a = await user();
    const attempt = (password: string) =>
      failure(deleteAccount({ principal: session(a.id), body: { password }, ip: "198.51.100.2" }));
    for (let i = 0; i < 5; i += 1)
      expect((await attempt("wrong-password-here"))?.code).toBe("invalid_request");
    const locked = await attempt(PASSWORD);
    expect(locked?.code).toBe("rate_limited");
    expect(Number(locked?.headers?.["Retry-After"])).toBeGreaterThan(0);
    const [still] = await (await getDb()).select().from(users).where(eq(users.id, a.id));
    expect(still).toBeDefined();
  });

  it("an account made by OAuth sign-in (no password) confirms by typing its email", async () => {
    const email = `oauth-${newId("usr")}@example.test`;
    const id = (await findOrCreateOAuthUser({
      provider: "github",
      providerAccountId: email,
      email,
    })) as string;
    const attempt = (body: { password?: string; confirmEmail?: string }) =>
      failure(deleteAccount({ principal: session(id), body, ip: "198.51.100.3" }));
    const noEmail = await attempt({ password: "anything-at-all" });
    expect(noEmail?.details).toEqual([{ path: "confirmEmail", message: "Type the account's email." }]);
    expect((await attempt({ confirmEmail: "someone-else@example.test" }))?.code).toBe("invalid_request");
    expect(await attempt({ confirmEmail: email.toUpperCase() })).toBeNull();
    expect(await (await getDb()).select().from(users).where(eq(users.id, id))).toEqual([]);
  });
});

describe("personal channel connections leave with their person", () => {
  it("removed from the brand: their LinkedIn member and Instagram go (tokens and scheduled publications), pages stay", async () => {
    const db = await getDb();
    const owner = await user();
    const editor = await user();
    const brandId = await brandOf([
      { id: owner.id, role: "owner" },
      { id: editor.id, role: "editor" },
    ]);
    const member = await channel(brandId, editor.id, "linkedin-member");
    const instagram = await channel(brandId, editor.id, "instagram");
    const page = await channel(brandId, editor.id, "linkedin-page");
    const ownersOwn = await channel(brandId, owner.id, "linkedin-member");
    const postId = newId("pst");
    await db.insert(posts).values({
      id: postId,
      groupId: postId,
      brandId,
      channel: "linkedin",
      goal: "awareness",
      topic: "Hello",
      caption: "Hello",
      mediaPlan: { format: "text_only", items: [] },
      hashtags: [],
      status: "approved",
      seed: 1,
      provider: "test",
      model: "test",
      latencyMs: 1,
    });
    const publicationId = newId("pub");
    await db.insert(publications).values({
      id: publicationId,
      postId,
      brandId,
      channelId: member,
      channel: "linkedin",
      status: "scheduled",
      publishAt: new Date(Date.now() + 86_400_000),
    });

    await removeMember({ principal: session(owner.id), brandId, userId: editor.id });

    const left = await db
      .select({ id: channelConnections.id })
      .from(channelConnections)
      .where(eq(channelConnections.brandId, brandId));
    expect(left.map((row) => row.id).sort()).toEqual([page, ownersOwn].sort());
    const [publication] = await db.select().from(publications).where(eq(publications.id, publicationId));
    expect(publication?.status ?? "gone").not.toBe("scheduled");
    const told = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.brandId, brandId), eq(activityLog.action, "channel.personal_disconnected")));
    expect(told.map((entry) => entry.subjectId).sort()).toEqual([member, instagram].sort());
    expect(told[0].details).toMatchObject({ email: editor.email, reason: "member_removed" });
  });

  it("deleting the account disconnects its personal accounts in every brand, and the owners are told", async () => {
    const db = await getDb();
    const owner = await user();
    const leaving = await user();
    const brandIds = [
      await brandOf([
        { id: owner.id, role: "owner" },
        { id: leaving.id, role: "owner" },
      ]),
      await brandOf([
        { id: owner.id, role: "owner" },
        { id: leaving.id, role: "editor" },
      ]),
    ];
    const personal = [
      await channel(brandIds[0], leaving.id, "instagram"),
      await channel(brandIds[1], leaving.id, "linkedin-member"),
    ];
    const page = await channel(brandIds[1], leaving.id, "linkedin-page");

    await deleteAccount({ principal: session(leaving.id), body: { password: PASSWORD }, ip: "198.51.100.4" });

    const left = await db
      .select({ id: channelConnections.id })
      .from(channelConnections)
      .where(inArray(channelConnections.brandId, brandIds));
    expect(left.map((row) => row.id)).toEqual([page]);
    const told = await db
      .select()
      .from(activityLog)
      .where(
        and(inArray(activityLog.brandId, brandIds), eq(activityLog.action, "channel.personal_disconnected")),
      );
    expect(told.map((entry) => entry.subjectId).sort()).toEqual([...personal].sort());
    expect(told.every((entry) => entry.actorEmail === leaving.email)).toBe(true);
    expect(told[0].details).toMatchObject({ email: leaving.email, reason: "account_deleted" });
  });
});
