import { beforeAll, describe, expect, it } from "vitest";
import { buildBrandPrompt } from "@/lib/brands/brand-prompt";
import {
  type BrandResponse,
  brandContextResponse,
  brandListResponse,
  brandResponse,
} from "@/lib/contracts/brands";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { makeImage } from "./support/images";

type User = Awaited<ReturnType<typeof newUser>>;

const FULL_BRAND = {
  name: "  Harbor Bikes  ",
  tone: "calm, practical and encouraging",
  voice: "We explain like a patient mechanic: plain words, one idea per sentence.",
  audience: "Commuters who want to ride to work all year",
  language: "pt-BR",
  values: ["safety", "repairability"],
  doList: ["give one concrete tip per post", "mention the season"],
  dontList: ["shame car drivers", "promise exact delivery dates"],
  bannedWords: ["cheapest", "unbreakable"],
  defaultHashtags: ["#HarborBikes", "#bike_commute"],
  primaryColor: "#0f766e",
  secondaryColor: "#FACC15",
  monthlyVideoQuota: 12,
};

async function createBrand(token: string, body: object = { name: "Quick Brand" }) {
  const response = await api("/api/brands", { method: "POST", token, json: body });
  expect(response.status).toBe(201);
  return brandResponse.parse(response.body);
}

function expectInvalid(response: Awaited<ReturnType<typeof api>>, path: string, message: RegExp) {
  expect(response.status).toBe(400);
  expect(response.body.error).toMatchObject({ code: "invalid_request", retryable: false });
  const issues = response.body.error.details as { path: string; message: string }[];
  const issue = issues.find((entry) => entry.path === path);
  expect(issue, `no issue at ${path} in ${JSON.stringify(issues)}`).toBeDefined();
  expect(issue?.message).toMatch(message);
}

let owner: User;
let stranger: User;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newUser(baseUrl()), newUser(baseUrl())]);
});

describe("create, read, list and update a brand", () => {
  it("creates a brand from a name alone, with the documented defaults, and the creator can read it", async () => {
    const created = await api("/api/brands", { method: "POST", token: owner.token, json: { name: "Solo" } });
    expect(created.status).toBe(201);
    const brand = brandResponse.parse(created.body);
    expect(brand).toMatchObject({
      name: "Solo",
      tone: "",
      voice: "",
      language: "en",
      values: [],
      defaultHashtags: [],
      primaryColor: "#1F2937",
      secondaryColor: "#F59E0B",
      monthlyVideoQuota: null,
      effectiveMonthlyVideoQuota: 30,
      avatarStatus: "none",
      avatarUrl: null,
      avatarFrameUrl: null,
      avatarError: null,
      avatarTrainingEndsAt: null,
    });
    expect(brand.brandId).toMatch(/^brd_/);
    expect(created.headers.get("location")).toBe(`/api/brands/${brand.brandId}`);

    const read = await api(created.headers.get("location") ?? "", { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("no-store");
    expect(brandResponse.parse(read.body)).toEqual(brand);
  });

  it("stores every field, trimmed, with colours in upper case", async () => {
    const brand = await createBrand(owner.token, FULL_BRAND);
    expect(brand).toMatchObject({
      ...FULL_BRAND,
      name: "Harbor Bikes",
      primaryColor: "#0F766E",
      effectiveMonthlyVideoQuota: 12,
    });
  });

  it("lists only the caller's brands, by name", async () => {
    const user = await newUser(baseUrl());
    const empty = await api("/api/brands", { token: user.token });
    expect(empty.status).toBe(200);
    expect(brandListResponse.parse(empty.body).items).toEqual([]);

    const zeta = await createBrand(user.token, { name: "Zeta" });
    const alpha = await createBrand(user.token, { name: "Alpha" });
    const list = brandListResponse.parse((await api("/api/brands", { token: user.token })).body);
    expect(list.items.map((brand) => brand.brandId)).toEqual([alpha.brandId, zeta.brandId]);

    const strangers = brandListResponse.parse((await api("/api/brands", { token: stranger.token })).body);
    expect(strangers.items.map((brand) => brand.brandId)).not.toContain(alpha.brandId);
  });

  it("PATCH changes only the fields sent; a null quota goes back to the deployment default", async () => {
    const brand = await createBrand(owner.token, FULL_BRAND);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const patched = await api(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      token: owner.token,
      json: { tone: "bold and witty", monthlyVideoQuota: 0 },
    });
    expect(patched.status).toBe(200);
    const updated = brandResponse.parse(patched.body);
    expect(updated).toEqual({
      ...brand,
      tone: "bold and witty",
      monthlyVideoQuota: 0,
      effectiveMonthlyVideoQuota: 0,
      updatedAt: updated.updatedAt,
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(brand.updatedAt));

    const reset = await api(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      token: owner.token,
      json: { monthlyVideoQuota: null },
    });
    expect(reset.body).toMatchObject({ monthlyVideoQuota: null, effectiveMonthlyVideoQuota: 30 });
    const read = await api(`/api/brands/${brand.brandId}`, { token: owner.token });
    expect(read.body).toMatchObject({ tone: "bold and witty", monthlyVideoQuota: null });
  });
});

describe("validation", () => {
  const long = (length: number) => "x".repeat(length);
  const many = (count: number, make = (i: number) => `item ${i}`) =>
    Array.from({ length: count }, (_, i) => make(i));

  // [field, bad value, the path the error names, what the message says]
  const cases: [string, unknown, string, RegExp][] = [
    ["name", "   ", "name", /Give the brand a name/],
    ["name", long(81), "name", /at most 80 characters/],
    ["name", 42, "name", /must be text/],
    ["tone", long(201), "tone", /at most 200 characters/],
    ["voice", long(1001), "voice", /at most 1000 characters/],
    ["audience", long(501), "audience", /at most 500 characters/],
    ["language", "English", "language", /language code such as en/],
    ["values", many(11), "values", /at most 10 entries/],
    ["values", ["craft", "  "], "values.1", /cannot be empty/],
    ["values", [long(61)], "values.0", /at most 60 characters/],
    ["values", ["Craft", "craft"], "values.1", /already in values/],
    ["values", "craft", "values", /must be a list/],
    ["doList", many(16), "doList", /at most 15 entries/],
    ["doList", [long(201)], "doList.0", /at most 200 characters/],
    ["dontList", many(16), "dontList", /at most 15 entries/],
    ["dontList", [7], "dontList.0", /must be text/],
    ["bannedWords", many(51), "bannedWords", /at most 50 entries/],
    ["bannedWords", [long(41)], "bannedWords.0", /at most 40 characters/],
    ["defaultHashtags", ["coffee"], "defaultHashtags.0", /# followed by letters, digits or _/],
    ["defaultHashtags", ["#cold-brew"], "defaultHashtags.0", /# followed by letters, digits or _/],
    ["defaultHashtags", many(6, (i) => `#tag${i}`), "defaultHashtags", /at most 5 entries/],
    ["defaultHashtags", ["#Coffee", "#coffee"], "defaultHashtags.1", /already in the default hashtags/],
    ["primaryColor", "red", "primaryColor", /hex colour like #1F2937/],
    ["secondaryColor", "#12345", "secondaryColor", /hex colour like #1F2937/],
    ["monthlyVideoQuota", -1, "monthlyVideoQuota", /cannot be negative/],
    ["monthlyVideoQuota", 1001, "monthlyVideoQuota", /at most 1000/],
    ["monthlyVideoQuota", 2.5, "monthlyVideoQuota", /whole number/],
    ["monthlyVideoQuota", "10", "monthlyVideoQuota", /whole number/],
  ];

  it.each(cases)(
    "%s = %j is refused on create and on update, naming the field",
    async (field, value, path, message) => {
      const created = await api("/api/brands", {
        method: "POST",
        token: owner.token,
        json: { name: "Valid", [field]: value },
      });
      expectInvalid(created, path, message);

      const brand = await createBrand(owner.token, FULL_BRAND);
      const patched = await api(`/api/brands/${brand.brandId}`, {
        method: "PATCH",
        token: owner.token,
        json: { [field]: value },
      });
      expectInvalid(patched, path, message);
      const unchanged = await api(`/api/brands/${brand.brandId}`, { token: owner.token });
      expect(unchanged.body).toEqual(brand);
    },
  );

  it("names unknown and read-only fields instead of ignoring them", async () => {
    const brand = await createBrand(owner.token);
    const response = await api(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      token: owner.token,
      json: { tone: "fine", avatarStatus: "ready", colour: "#000000" },
    });
    expectInvalid(response, "(body)", /"avatarStatus", "colour" are not fields you can set/);
    expect((await api(`/api/brands/${brand.brandId}`, { token: owner.token })).body.tone).toBe("");
  });

  it("refuses a create without a name, an empty PATCH, a non-object and malformed JSON", async () => {
    expectInvalid(
      await api("/api/brands", { method: "POST", token: owner.token, json: { tone: "x" } }),
      "name",
      /The name is required/,
    );
    const brand = await createBrand(owner.token);
    const path = `/api/brands/${brand.brandId}`;
    expectInvalid(
      await api(path, { method: "PATCH", token: owner.token, json: {} }),
      "(body)",
      /at least one field/,
    );
    expectInvalid(
      await api(path, { method: "PATCH", token: owner.token, json: ["tone"] }),
      "(body)",
      /JSON object/,
    );
    const malformed = await api(path, {
      method: "PATCH",
      token: owner.token,
      headers: { "content-type": "application/json" },
      body: "{tone:",
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/not valid JSON/);
  });
});

describe("auth and tenancy", () => {
  let brand: BrandResponse;
  beforeAll(async () => {
    brand = await createBrand(owner.token, FULL_BRAND);
  });

  const operations = (brandId: string) => [
    { method: "GET", path: "/api/brands" },
    { method: "POST", path: "/api/brands", json: { name: "Nope" } },
    { method: "GET", path: `/api/brands/${brandId}` },
    { method: "PATCH", path: `/api/brands/${brandId}`, json: { tone: "hijacked" } },
    { method: "GET", path: `/api/brands/${brandId}/context` },
    { method: "POST", path: `/api/brands/${brandId}/avatar` },
  ];

  it("answers 401 with WWW-Authenticate on every operation without a token", async () => {
    for (const { method, path, json } of operations(brand.brandId)) {
      const response = await api(path, { method, json });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
      expect(response.body.error.code).toBe("unauthorized");
    }
  });

  it("answers 404 on every brand operation for another user's brand, and changes nothing", async () => {
    const form = new FormData();
    form.append("file", new Blob([await makeImage()], { type: "image/png" }), "avatar.png");
    const attempts = [
      api(`/api/brands/${brand.brandId}`, { token: stranger.token }),
      api(`/api/brands/${brand.brandId}`, {
        method: "PATCH",
        token: stranger.token,
        json: { tone: "hijacked" },
      }),
      api(`/api/brands/${brand.brandId}/context`, { token: stranger.token }),
      api(`/api/brands/${brand.brandId}/avatar`, { method: "POST", token: stranger.token, body: form }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: "not_found", message: "Brand not found." });
    }
    const unchanged = await api(`/api/brands/${brand.brandId}`, { token: owner.token });
    expect(unchanged.body).toEqual(brand);
  });

  it("answers an unknown id and a malformed id the same way as another user's brand", async () => {
    for (const id of ["brd_doesNotExist000", "not-an-id", "pst_AAAAAAAAAAAA"]) {
      const response = await api(`/api/brands/${id}/context`, { token: owner.token });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("not_found");
    }
  });
});

describe("brand context for AI", () => {
  it("answers exactly the documented fields, and a prompt with the tone, voice, do and don't lists and banned words", async () => {
    const brand = await createBrand(owner.token, FULL_BRAND);
    const response = await api(`/api/brands/${brand.brandId}/context`, { token: owner.token });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      [
        "brandId",
        "name",
        "tone",
        "voice",
        "audience",
        "language",
        "languages",
        "values",
        "doList",
        "dontList",
        "bannedWords",
        "defaultHashtags",
        "avatarStatus",
        "updatedAt",
        "prompt",
        "examples",
      ].sort(),
    );
    const context = brandContextResponse.parse(response.body);
    expect(context).toMatchObject({ brandId: brand.brandId, tone: FULL_BRAND.tone, avatarStatus: "none" });
    for (const expected of [
      FULL_BRAND.tone,
      FULL_BRAND.voice,
      FULL_BRAND.audience,
      ...FULL_BRAND.doList,
      ...FULL_BRAND.dontList,
      ...FULL_BRAND.bannedWords,
    ]) {
      expect(context.prompt).toContain(expected);
    }
    // What the endpoint shows is what generation sends: the same function over the same stored brand.
    expect(context.prompt).toBe(buildBrandPrompt(brand));
  });

  it("follows the brand: a changed tone and banned word show up in the next prompt", async () => {
    const brand = await createBrand(owner.token, FULL_BRAND);
    await api(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      token: owner.token,
      json: { tone: "dry and deadpan", bannedWords: ["disrupt"] },
    });
    const { body } = await api(`/api/brands/${brand.brandId}/context`, { token: owner.token });
    expect(body.prompt).toContain("dry and deadpan");
    expect(body.prompt).toContain("disrupt");
    expect(body.prompt).not.toContain(FULL_BRAND.tone);
    expect(body.prompt).not.toContain("unbreakable");
  });
});
