import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { DEMO_LOGIN } from "@/db/seed";
import { operations } from "@/lib/contracts";
import { CARD_FIELDS, placeholdersOf } from "@/lib/docs/card-schema";
import { loadCards } from "@/lib/docs/load-cards";
import { PLACEHOLDER_SOURCES } from "@/lib/docs/placeholders";
import { testSafetyOf } from "@/lib/docs/test-safety";

const cards = loadCards().map((loaded) => loaded.card);
const implemented = new Set(operations.map((operation) => operation.id));

fs.mkdirSync("screenshots", { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `screenshots/${name}.png`, fullPage: true });

/**
 * The order the signed-in run presses the cards in, with the status each should answer: creators before the
 * cards whose placeholders read what they created (a post before reading it), and create-brand last so the
 * demo brand stays the first brand the panel picks. Cards that change an existing resource run on a sandbox
 * resource, after the confirmation.
 */
const RUN: { id: string; status: number }[] = [
  { id: "backend-connect-check", status: 200 },
  { id: "sign-up", status: 201 },
  { id: "create-api-key", status: 201 },
  { id: "list-api-keys", status: 200 },
  { id: "revoke-api-key", status: 204 },
  { id: "list-brands", status: 200 },
  { id: "get-brand", status: 200 },
  { id: "update-brand", status: 200 },
  { id: "brand-context", status: 200 },
  { id: "generate-post", status: 201 },
  { id: "generate-post-stream", status: 200 },
  { id: "list-posts", status: 200 },
  { id: "get-post", status: 200 },
  { id: "update-post", status: 200 },
  { id: "generate-video", status: 202 },
  { id: "video-job-status", status: 200 },
  { id: "list-video-jobs", status: 200 },
  { id: "cancel-video-job", status: 200 },
  { id: "upload-avatar", status: 202 },
  { id: "create-webhook", status: 201 },
  { id: "list-webhooks", status: 200 },
  { id: "list-webhook-deliveries", status: 200 },
  { id: "send-test-webhook", status: 202 },
  { id: "delete-webhook", status: 204 },
  { id: "create-brand", status: 201 },
  { id: "upload-logo", status: 200 },
  { id: "brand-preview-frame", status: 200 },
  { id: "delete-logo", status: 200 },
  { id: "upload-music", status: 200 },
  { id: "delete-music", status: 200 },
  { id: "generate-media-image", status: 200 },
  { id: "upload-media-image", status: 200 },
  { id: "delete-media-image", status: 200 },
];

/** The media-image cards act on item {index} of the sandbox post: give it one image item, and type 0. */
async function prepareMediaItem(page: Page) {
  const label = (await page.getByTestId("sandbox-target").textContent()) ?? "";
  const postId = label.match(/\((pst_[\w-]+)\)/)?.[1];
  expect(postId, label).toBeTruthy();
  const session = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.patch(`/api/posts/${postId}`, {
    headers: { authorization: `Bearer ${session.accessToken}` },
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

/**
 * A webhook endpoint made for the test through the API, for the card that removes one: the panel offers
 * no sandbox webhook, so it never fills one in and the developer types the id (as this test does).
 */
async function newWebhookId(page: Page) {
  const session = await (await page.request.get("/api/auth/session")).json();
  const response = await page.request.post("/api/webhooks", {
    headers: { authorization: `Bearer ${session.accessToken}` },
    data: { url: "http://127.0.0.1:9/sandbox-hook", events: ["video.succeeded"] },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).webhookId as string;
}

async function signInAsDemo(page: Page) {
  await page.goto("/login?callbackUrl=%2Fapi-docs");
  await page.getByLabel("Email").fill(DEMO_LOGIN.email);
  await page.getByLabel("Password").fill(DEMO_LOGIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/api-docs$/);
}

/**
 * Opens a card, waits for its placeholders to be filled from the user's data (or, for a card that changes
 * an existing resource, takes a sandbox one and confirms), presses Send, reads the verdict.
 */
async function pressTestButton(page: Page, id: string) {
  await page.goto(`/api-docs/${id}`);
  const card = cards.find((candidate) => candidate.id === id)!;
  const safety = testSafetyOf(card);
  const target = safety.kind === "change" ? safety.param : undefined;
  if (target && safety.kind === "change" && !safety.resource) {
    await page.getByTestId(`param-${target}`).fill(await newWebhookId(page));
  } else if (target) {
    await page.getByTestId("use-sandbox").click();
    await expect(page.getByTestId("sandbox-target"), id).toBeVisible({ timeout: 60_000 });
    if (id.endsWith("-media-image")) await prepareMediaItem(page);
  }
  for (const name of placeholdersOf(card)) {
    const source = PLACEHOLDER_SOURCES[name];
    if (name !== target && (!source || implemented.has(source.listOperation))) {
      await expect(page.getByTestId(`param-${name}`), `${id}: {${name}}`).not.toHaveValue("");
    }
  }
  await page.getByTestId("send-button").click();
  if (target) await page.getByTestId("confirm-send").click();
  const verdict = page.getByTestId("contract-verdict");
  await expect(verdict).toBeVisible();
  return {
    verdict: await verdict.getAttribute("data-verdict"),
    status: Number(await page.getByTestId("response-status").textContent()),
    text: await verdict.textContent(),
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

test("every card page shows all 19 fields, its MDX notes and copyable snippets", async ({ page }) => {
  expect(CARD_FIELDS).toHaveLength(19);
  for (const card of cards) {
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
    await expect(page.getByTestId("snippet-typed")).toContainText(`client.${card.method}("${card.endpoint}"`);
  }
});

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

test("signed in as the demo user, every card's test button gets a live response that matches the contract", async ({
  page,
}) => {
  test.setTimeout(300_000);
  expect(RUN.map((step) => step.id).sort()).toEqual(cards.map((card) => card.id).sort());
  await signInAsDemo(page);

  for (const step of RUN) {
    const result = await pressTestButton(page, step.id);
    if (implemented.has(step.id)) {
      expect(result, `${step.id}: ${result.text}`).toMatchObject({ verdict: "pass", status: step.status });
    } else {
      expect(result, step.id).toMatchObject({ verdict: "not_implemented", status: 404 });
      await expect(page.getByTestId("mock-output")).toBeVisible();
    }
    if (["generate-post", "generate-video", "upload-avatar", "revoke-api-key"].includes(step.id))
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
});
