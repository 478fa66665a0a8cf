import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { DEMO_LOGIN } from "@/db/seed";
import { operations } from "@/lib/contracts";
import { CARD_FIELDS, placeholdersOf } from "@/lib/docs/card-schema";
import { loadCards } from "@/lib/docs/load-cards";
import { PLACEHOLDER_SOURCES } from "@/lib/docs/placeholders";
import { testSafetyOf } from "@/lib/docs/test-safety";
import { signIn } from "../test/support/auth";

const cards = loadCards().map((loaded) => loaded.card);
const implemented = new Set(operations.map((operation) => operation.id));

fs.mkdirSync("screenshots", { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `screenshots/${name}.png`, fullPage: true });

/** The body of the response the panel shows, as JSON (null when it has none). */
type Json = Record<string, unknown>;

/** What earlier steps answered, for the steps that act on what they made (the publication just created). */
const answers: Record<string, Json> = {};

/** The signed-in user's access token, as the panel sends it. */
async function bearerOf(page: Page) {
  const session = await (await page.request.get("/api/auth/session")).json();
  return { authorization: `Bearer ${session.accessToken}` };
}

/** A call through the API (outside the panel) that sets up what a card acts on; it must succeed. */
async function apiCall(
  page: Page,
  headers: Record<string, string>,
  method: string,
  url: string,
  data?: unknown,
) {
  const response = await page.request.fetch(url, { method, headers, data });
  expect(response.status(), `${method} ${url}: ${await response.text()}`).toBeLessThan(300);
  return (response.status() === 204 ? {} : await response.json()) as Json;
}

/** A placeholder the panel fills from the user's data, once it is filled. */
async function filled(page: Page, name: string) {
  const input = page.getByTestId(`param-${name}`);
  await expect(input, `{${name}}`).not.toHaveValue("");
  return input.inputValue();
}

/** The id in the sandbox label: “… (pst_…)”. */
async function sandboxId(page: Page) {
  const label = (await page.getByTestId("sandbox-target").textContent()) ?? "";
  const id = label.match(/\(((?:pst|brd|job|key)_[\w-]+)\)/)?.[1];
  expect(id, label).toBeTruthy();
  return id as string;
}

/** Another person, made through the API: a teammate to invite, or an account to delete. */
async function newPerson(label: string) {
  const base = process.env.E2E_BASE_URL as string;
  const email = `docs-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
  const password = "docs-person-password";
  const created = await fetch(`${base}/api/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, name: `Docs ${label}` }),
  });
  expect(created.status).toBe(201);
  const { userId } = (await created.json()) as { userId: string };
  const { accessToken } = await signIn(base, email, password);
  return { email, password, userId, headers: { authorization: `Bearer ${accessToken}` } };
}

/** The token at the end of an invitation's link. */
const tokenOf = (invitation: Json) => String(invitation.link).split("/invite/")[1];

/** A new invitation to the brand in the card's {brandId} (filled from the user's brands). */
async function invitationInFilledBrand(page: Page) {
  const brandId = await filled(page, "brandId");
  return apiCall(page, await bearerOf(page), "POST", `/api/brands/${brandId}/invitations`, {
    email: `docs-invitee-${Date.now()}@example.test`,
    role: "viewer",
  });
}

/** A teammate who joined the card's {brandId} through an invitation, for the member cards. */
let teammate: Awaited<ReturnType<typeof newPerson>> | undefined;
async function teammateInFilledBrand(page: Page) {
  const brandId = await filled(page, "brandId");
  const headers = await bearerOf(page);
  const members = await apiCall(page, headers, "GET", `/api/brands/${brandId}/members`);
  if (!teammate || !(members.items as Json[]).some((member) => member.userId === teammate?.userId)) {
    teammate = await newPerson("teammate");
    const invitation = await apiCall(page, headers, "POST", `/api/brands/${brandId}/invitations`, {
      email: teammate.email,
      role: "viewer",
    });
    await apiCall(page, teammate.headers, "POST", `/api/invitations/${tokenOf(invitation)}/accept`, {});
  }
  await page.getByTestId("param-userId").fill(teammate.userId);
}

/**
 * A webhook endpoint made for the test through the API, for the cards that act on one: the panel offers no
 * sandbox webhook, so it never fills one in and the developer types the id (as this does).
 */
async function typeNewWebhookId(page: Page) {
  const webhook = await apiCall(page, await bearerOf(page), "POST", "/api/webhooks", {
    url: "http://127.0.0.1:9/sandbox-hook",
    events: ["video.succeeded"],
  });
  await page.getByTestId("param-webhookId").fill(String(webhook.webhookId));
}

/** A channel of the fake Telegram whose bot may post there. */
async function fakeTelegramChannel(page: Page) {
  const response = await page.request.post(`${process.env.E2E_TELEGRAM_URL}/__fake/channels`, {
    data: { title: `Docs channel ${Date.now()}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { botToken: string; chatId: number };
}

/** The sandbox post's brand gets a Telegram channel (through the API), and the card's {channelId} names it. */
async function channelForSandboxPost(page: Page) {
  const headers = await bearerOf(page);
  const post = await apiCall(page, headers, "GET", `/api/posts/${await sandboxId(page)}`);
  const fake = await fakeTelegramChannel(page);
  const channel = await apiCall(page, headers, "POST", "/api/channels", {
    brandId: post.brandId,
    channel: "telegram",
    botToken: fake.botToken,
    chatId: String(fake.chatId),
  });
  answers.sandboxChannel = channel;
  await page.getByTestId("param-channelId").fill(String(channel.channelId));
}

/** A publication of the sandbox post that ended publish_outcome_unknown; the card's {publicationId} names it. */
async function unknownOutcomePublication(page: Page) {
  const behavior = await page.request.post(`${process.env.E2E_TELEGRAM_URL}/__fake/behavior`, {
    data: { recordThenFail: { count: 1, status: 502 } },
  });
  expect(behavior.status()).toBe(200);
  const headers = await bearerOf(page);
  const created = await apiCall(
    page,
    headers,
    "POST",
    `/api/posts/${answers["get-publication"].postId}/publications`,
    { channelId: answers.sandboxChannel.channelId },
  );
  await expect
    .poll(
      async () =>
        (
          (await apiCall(page, headers, "GET", `/api/publications/${created.publicationId}`))
            .error as Json | null
        )?.code,
      { timeout: 30_000 },
    )
    .toBe("publish_outcome_unknown");
  await page.getByTestId("param-publicationId").fill(String(created.publicationId));
}

type Step = {
  id: string;
  status: number;
  /** Runs after the sandbox (if any) is chosen and before Send: types what the panel cannot fill. */
  prepare?: (page: Page) => Promise<void>;
};

/**
 * The order the signed-in run presses the cards in, with the status each should answer: creators before the
 * cards whose placeholders read what they created (a post before reading it), and create-brand late so the
 * demo brand stays the first brand the panel picks. Cards that change an existing resource run on a sandbox
 * resource, after the confirmation; where the panel has no sandbox of the kind (a member, an invitation, a
 * channel), `prepare` makes one through the API and types its id, as a developer would.
 */
const RUN: Step[] = [
  { id: "backend-connect-check", status: 200 },
  { id: "sign-up", status: 201 },
  { id: "create-api-key", status: 201 },
  { id: "list-api-keys", status: 200 },
  { id: "revoke-api-key", status: 204 },
  { id: "list-brands", status: 200 },
  { id: "get-brand", status: 200 },
  { id: "update-brand", status: 200 },
  { id: "brand-context", status: 200 },
  // Teams: members, invitations, the activity log.
  { id: "list-members", status: 200 },
  { id: "create-invitation", status: 201 },
  { id: "list-invitations", status: 200 },
  {
    id: "resend-invitation",
    status: 200,
    prepare: async (page) => {
      const invitation = await invitationInFilledBrand(page);
      await page.getByTestId("param-invitationId").fill(String(invitation.invitationId));
    },
  },
  {
    id: "revoke-invitation",
    status: 200,
    prepare: async (page) => {
      const invitation = await invitationInFilledBrand(page);
      await page.getByTestId("param-invitationId").fill(String(invitation.invitationId));
    },
  },
  {
    id: "get-invitation",
    status: 200,
    prepare: async (page) => {
      const headers = await bearerOf(page);
      const [brand] = (await apiCall(page, headers, "GET", "/api/brands")).items as Json[];
      const invitation = await apiCall(page, headers, "POST", `/api/brands/${brand.brandId}/invitations`, {
        email: `docs-preview-${Date.now()}@example.test`,
        role: "editor",
      });
      await page.getByTestId("param-token").fill(tokenOf(invitation));
    },
  },
  { id: "update-member", status: 200, prepare: teammateInFilledBrand },
  { id: "remove-member", status: 204, prepare: teammateInFilledBrand },
  {
    // Another person's brand invites the demo user, who accepts from the card. The brand's name sorts
    // after the demo's own, so the panel's {brandId} stays the demo brand.
    id: "accept-invitation",
    status: 200,
    prepare: async (page) => {
      const owner = await newPerson("host");
      const brand = await apiCall(page, owner.headers, "POST", "/api/brands", {
        name: "Zulu Guest Brand",
        tone: "calm",
        voice: "Short sentences.",
      });
      const invitation = await apiCall(
        page,
        owner.headers,
        "POST",
        `/api/brands/${brand.brandId}/invitations`,
        {
          email: DEMO_LOGIN.email,
          role: "viewer",
        },
      );
      await page.getByTestId("param-token").fill(tokenOf(invitation));
    },
  },
  { id: "list-activity", status: 200 },
  { id: "generate-post", status: 201 },
  { id: "generate-post-stream", status: 200 },
  { id: "list-posts", status: 200 },
  { id: "get-post", status: 200 },
  { id: "update-post", status: 200 },
  // Approval: the sandbox post goes to review and comes back with a request for changes.
  { id: "submit-post", status: 200 },
  { id: "list-review-queue", status: 200 },
  { id: "review-post", status: 200 },
  { id: "generate-video", status: 202 },
  { id: "video-job-status", status: 200 },
  { id: "list-video-jobs", status: 200 },
  { id: "cancel-video-job", status: 200 },
  { id: "upload-avatar", status: 202 },
  { id: "create-webhook", status: 201 },
  { id: "list-webhooks", status: 200 },
  { id: "list-webhook-deliveries", status: 200 },
  { id: "send-test-webhook", status: 202, prepare: typeNewWebhookId },
  { id: "delete-webhook", status: 204, prepare: typeNewWebhookId },
  { id: "create-brand", status: 201 },
  { id: "upload-logo", status: 200 },
  { id: "brand-preview-frame", status: 200 },
  { id: "delete-logo", status: 200 },
  { id: "upload-music", status: 200 },
  { id: "delete-music", status: 200 },
  { id: "generate-media-image", status: 200, prepare: prepareMediaItem },
  { id: "upload-media-image", status: 200, prepare: prepareMediaItem },
  { id: "delete-media-image", status: 200, prepare: prepareMediaItem },
  // Publishing, against the fake Telegram Bot API the global setup started.
  {
    id: "connect-channel",
    status: 201,
    prepare: async (page) => {
      const fake = await fakeTelegramChannel(page);
      await page.getByTestId("request-body").fill(
        JSON.stringify({
          brandId: "{brandId}",
          channel: "telegram",
          botToken: fake.botToken,
          chatId: String(fake.chatId),
        }),
      );
    },
  },
  { id: "list-channels", status: 200 },
  { id: "create-publication", status: 202, prepare: channelForSandboxPost },
  {
    id: "get-publication",
    status: 200,
    prepare: async (page) => {
      await page.getByTestId("param-publicationId").fill(String(answers["create-publication"].publicationId));
    },
  },
  { id: "list-publications", status: 200 },
  {
    id: "reschedule-publication",
    status: 200,
    prepare: async (page) => {
      const scheduled = await apiCall(
        page,
        await bearerOf(page),
        "POST",
        `/api/posts/${answers["get-publication"].postId}/publications`,
        {
          channelId: answers.sandboxChannel.channelId,
          publishAt: new Date(Date.now() + 86_400_000).toISOString(),
        },
      );
      expect(scheduled.status).toBe("scheduled");
      await page.getByTestId("param-publicationId").fill(String(scheduled.publicationId));
      await page
        .getByTestId("request-body")
        .fill(JSON.stringify({ publishAt: new Date(Date.now() + 2 * 86_400_000).toISOString() }));
    },
  },
  {
    id: "cancel-publication",
    status: 200,
    prepare: async (page) => {
      const channel = answers.sandboxChannel;
      const scheduled = await apiCall(
        page,
        await bearerOf(page),
        "POST",
        `/api/posts/${answers["get-publication"].postId}/publications`,
        { channelId: channel.channelId, publishAt: new Date(Date.now() + 86_400_000).toISOString() },
      );
      expect(scheduled.status).toBe("scheduled");
      await page.getByTestId("param-publicationId").fill(String(scheduled.publicationId));
    },
  },
  // An unknown outcome for real: the fake Telegram posts the message, then answers 502.
  { id: "mark-publication-posted", status: 200, prepare: unknownOutcomePublication },
  { id: "send-publication-again", status: 200, prepare: unknownOutcomePublication },
  // Results: a post's metrics (none yet for the draft: an empty list), a refresh on the sandbox post, the brand's analytics.
  { id: "get-post-metrics", status: 200 },
  { id: "refresh-post-metrics", status: 202 },
  { id: "get-brand-analytics", status: 200 },
  { id: "get-brand-insights", status: 200 },
  // Languages: the channel speaks the demo brand's main language; the sandbox post's group goes to its channels.
  {
    id: "update-channel",
    status: 200,
    prepare: async (page) => {
      await page.getByTestId("param-channelId").fill(String(answers["connect-channel"].channelId));
      await page.getByTestId("request-body").fill(JSON.stringify({ language: "en" }));
    },
  },
  {
    id: "replace-channel-schedule",
    status: 200,
    prepare: async (page) => {
      await page.getByTestId("param-channelId").fill(String(answers["connect-channel"].channelId));
    },
  },
  {
    id: "get-channel-schedule",
    status: 200,
    prepare: async (page) => {
      await page.getByTestId("param-channelId").fill(String(answers["connect-channel"].channelId));
    },
  },
  { id: "publish-all-languages", status: 202 },
  {
    id: "disconnect-channel",
    status: 204,
    prepare: async (page) => {
      await page.getByTestId("param-channelId").fill(String(answers["connect-channel"].channelId));
    },
  },
];

/** The media-image cards act on item {index} of the sandbox post: give it one image item, and type 0. */
async function prepareMediaItem(page: Page) {
  const postId = await sandboxId(page);
  const response = await page.request.patch(`/api/posts/${postId}`, {
    headers: await bearerOf(page),
    data: {
      mediaPlan: {
        format: "single_image",
        items: [{ type: "image", description: "A sandbox picture", altText: "Sandbox", aspectRatio: "1:1" }],
      },
    },
  });
  expect(response.status()).toBe(200);
  await page.getByTestId("param-index").fill("0");
}

async function signInAs(page: Page, email: string, password: string) {
  await page.goto("/login?callbackUrl=%2Fapi-docs");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/api-docs$/);
}

const signInAsDemo = (page: Page) => signInAs(page, DEMO_LOGIN.email, DEMO_LOGIN.password);

/** The response body the panel shows, when it is one JSON object (a stream is several). */
function jsonOrNull(text: string): Json | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/**
 * Opens a card, waits for its placeholders to be filled from the user's data (or, for a card that changes
 * an existing resource, takes a sandbox one or has `prepare` type one), presses Send, confirms a change,
 * reads the verdict.
 */
async function pressTestButton(page: Page, id: string, prepare?: (page: Page) => Promise<void>) {
  await page.goto(`/api-docs/${id}`);
  const card = cards.find((candidate) => candidate.id === id)!;
  const safety = testSafetyOf(card);
  const target = safety.kind === "change" ? safety.param : undefined;
  if (safety.kind === "change" && safety.resource) {
    await page.getByTestId("use-sandbox").click();
    await expect(page.getByTestId("sandbox-target"), id).toBeVisible({ timeout: 60_000 });
  }
  if (prepare) await prepare(page);
  for (const name of placeholdersOf(card)) {
    const source = PLACEHOLDER_SOURCES[name];
    if (name !== target && (!source || implemented.has(source.listOperation))) {
      await expect(page.getByTestId(`param-${name}`), `${id}: {${name}}`).not.toHaveValue("");
    }
  }
  if (target) await expect(page.getByTestId(`param-${target}`), `${id}: {${target}}`).not.toHaveValue("");
  await page.getByTestId("send-button").click();
  if (safety.kind === "change") await page.getByTestId("confirm-send").click();
  const verdict = page.getByTestId("contract-verdict");
  await expect(verdict).toBeVisible();
  const body = (await page.getByTestId("response-body").textContent()) ?? "";
  return {
    verdict: await verdict.getAttribute("data-verdict"),
    status: Number(await page.getByTestId("response-status").textContent()),
    text: await verdict.textContent(),
    body: jsonOrNull(body),
  };
}

test("the index lists every card, and search and filters narrow it", async ({ page }) => {
  await page.goto("/api-docs");
  const rows = page.getByTestId("card-row");
  await expect(rows).toHaveCount(cards.length);
  await shot(page, "api-docs-index");

  await page.getByLabel("Search cards").fill("video job");
  const matching = cards.filter((card) =>
    ["video", "job"].every((word) =>
      `${card.id} ${card.title} ${card.method} ${card.endpoint} ${card.description}`
        .toLowerCase()
        .includes(word),
    ),
  );
  expect(matching.length).toBeGreaterThan(0);
  await expect(rows).toHaveCount(matching.length);
  for (const row of await rows.all()) await expect(row).toContainText(/video/i);

  await page.getByLabel("Search cards").fill("");
  await page.getByRole("button", { name: "AI", exact: true }).click();
  await expect(rows).toHaveCount(cards.filter((card) => card.owner === "AI").length);

  await page.getByRole("button", { name: "deprecated", exact: true }).click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByText("No card matches these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear search and filters" }).click();
  await expect(rows).toHaveCount(cards.length);

  await rows.filter({ hasText: "Generate post" }).filter({ hasNotText: "streamed" }).click();
  await expect(page).toHaveURL(/\/api-docs\/generate-post$/);
});

/** Cards per walk test: each opens every tab of its cards, so the walk is split to fit the test timeout. */
const WALK_CHUNK = 10;
/** Per card walked: the page load, three tabs and 19 fields, with room for a machine under load. */
const WALK_MS_PER_CARD = 15_000;

for (let start = 0; start < cards.length; start += WALK_CHUNK) {
  const chunk = cards.slice(start, start + WALK_CHUNK);
  test(`every card page shows all 19 fields, its MDX notes and copyable snippets (cards ${start + 1}–${start + chunk.length} of ${cards.length})`, async ({
    page,
  }) => {
    test.setTimeout(30_000 + chunk.length * WALK_MS_PER_CARD);
    expect(CARD_FIELDS).toHaveLength(19);
    for (const card of chunk) {
      await page.goto(`/api-docs/${card.id}`);
      // curl and fetch are tabs of one code block: each field is on screen once its tab is open.
      await expect(page.getByRole("button", { name: "Copy curl" })).toBeVisible();
      await expect(page.locator('[data-field="curl"]'), `${card.id}: curl`).toBeVisible();
      await page.getByRole("tab", { name: "fetch" }).click();
      await expect(page.getByRole("button", { name: "Copy fetch" })).toBeVisible();
      for (const field of CARD_FIELDS.filter((name) => name !== "curl")) {
        await expect(
          page.locator(`[data-field="${field}"]:visible`).first(),
          `${card.id}: ${field}`,
        ).toBeVisible();
      }
      await expect(page.locator('[data-field="method"]').getByTestId("method-badge")).toHaveText(card.method);
      await expect(page.getByTestId("card-notes")).toBeVisible();
      await expect(page.locator("#errors")).toBeVisible();
      await page.getByRole("tab", { name: "Typed client" }).click();
      await expect(page.getByTestId("snippet-typed")).toContainText(
        `client.${card.method}("${card.endpoint}"`,
      );
    }
  });
}

test("signed out, the public health check runs and the other cards ask for sign-in", async ({ page }) => {
  const health = await pressTestButton(page, "backend-connect-check");
  expect(health).toMatchObject({ verdict: "pass", status: 200 });
  await shot(page, "api-docs-backend-connect-check");

  await page.goto("/api-docs/generate-post");
  await expect(page.getByTestId("sign-in-prompt")).toBeVisible();
  await expect(page.getByTestId("send-button")).toBeDisabled();
  await expect(page.getByRole("link", { name: "Sign in" }).last()).toHaveAttribute(
    "href",
    "/login?callbackUrl=%2Fapi-docs%2Fgenerate-post",
  );
});

/** Run as its own account in its own browser context, since it deletes the account it is signed in as. */
const OWN_ACCOUNT = ["delete-account"];

test("signed in as the demo user, every card's test button gets a live response that matches the contract", async ({
  page,
}) => {
  expect([...RUN.map((step) => step.id), ...OWN_ACCOUNT].sort()).toEqual(cards.map((card) => card.id).sort());
  // Each step loads a page, waits for its lookups and a live answer; the video poll below adds up to 3½ min.
  test.setTimeout(240_000 + RUN.length * 10_000);
  await signInAsDemo(page);

  for (const step of RUN) {
    const result = await pressTestButton(page, step.id, step.prepare);
    if (implemented.has(step.id)) {
      expect(result, `${step.id}: ${result.text}`).toMatchObject({ verdict: "pass", status: step.status });
    } else {
      expect(result, step.id).toMatchObject({ verdict: "not_implemented", status: 404 });
      await expect(page.getByTestId("mock-output")).toBeVisible();
    }
    if (result.body) answers[step.id] = result.body;
    if (
      ["generate-post", "generate-video", "upload-avatar", "revoke-api-key", "create-publication"].includes(
        step.id,
      )
    )
      await shot(page, `api-docs-${step.id}`);

    if (step.id === "generate-video" && implemented.has("video-job-status")) {
      await page.getByRole("button", { name: "Poll this job until it is done" }).click();
      const poller = page.getByTestId("job-poller");
      await expect(poller).toHaveAttribute("data-job-status", "succeeded", { timeout: 180_000 });
      await expect(poller.getByTestId("contract-verdict")).toHaveAttribute("data-verdict", "pass");
      const video = page.getByTestId("job-video");
      await expect(video).toBeVisible();
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(1);
      await shot(page, "api-docs-video-played");
    }
  }

  // What the team and publishing cards did is there for real.
  const headers = await bearerOf(page);
  const accepted = answers["accept-invitation"];
  expect(accepted).toMatchObject({ role: "viewer" });
  const guestBrand = await apiCall(page, headers, "GET", `/api/brands/${accepted.brandId}`);
  expect(guestBrand.name).toBe("Zulu Guest Brand");
  const publication = await apiCall(
    page,
    headers,
    "GET",
    `/api/publications/${answers["create-publication"].publicationId}`,
  );
  expect(["publishing", "published", "scheduled"]).toContain(publication.status);
  expect(answers["cancel-publication"]).toMatchObject({ status: "canceled" });
});

test("signed in as a throwaway account, the delete-account card deletes it after the confirmation", async ({
  browser,
}) => {
  const person = await newPerson("leaver");
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signInAs(page, person.email, person.password);
  const result = await pressTestButton(page, "delete-account", async (panel) => {
    await panel.getByTestId("request-body").fill(JSON.stringify({ password: person.password }));
  });
  expect(result, result.text ?? "").toMatchObject({ verdict: "pass", status: 204 });
  await shot(page, "api-docs-delete-account");
  // The account is gone: its token answers 401, and its password no longer signs in.
  expect((await page.request.get("/api/keys", { headers: person.headers })).status()).toBe(401);
  await expect(signIn(process.env.E2E_BASE_URL as string, person.email, person.password)).rejects.toThrow(
    /Sign-in failed/,
  );
  await context.close();
});
