import fs from "node:fs";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { DEMO_LOGIN } from "@/db/seed";
import { placeholdersOf } from "@/lib/docs/card-schema";
import { loadCards } from "@/lib/docs/load-cards";
import { PLACEHOLDER_SOURCES } from "@/lib/docs/placeholders";
import { testSafetyOf } from "@/lib/docs/test-safety";

const cards = loadCards().map((loaded) => loaded.card);
const SHOTS = "/work/shots/docs";
fs.mkdirSync(SHOTS, { recursive: true });

type Json = Record<string, unknown>;

async function signIn(page: Page) {
  await page.goto("/login?callbackUrl=%2Fapi-docs");
  await page.getByLabel("Email").fill(DEMO_LOGIN.email);
  await page.getByLabel("Password").fill(DEMO_LOGIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/api-docs$/);
  const session = (await (await page.request.get("/api/auth/session")).json()) as { accessToken: string };
  return session.accessToken;
}

/** The caller's API through the same routes an integrator uses, outside the page. */
function apiOf(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    get: async (url: string) => {
      const response = await request.get(url, { headers });
      expect(response.status(), url).toBe(200);
      return (await response.json()) as Json;
    },
    post: async (url: string, data: unknown) => {
      const response = await request.post(url, { headers, data });
      expect(response.status(), url).toBeLessThan(300);
      return (await response.json()) as Json;
    },
    delete: (url: string) => request.delete(url, { headers }),
  };
}

const items = (list: Json) => list.items as Json[];

test("no Send on any card changes the user's existing brand, post, video job or API key without a confirmation", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const api = apiOf(page.request, await signIn(page));

  // Real data the old panel would have picked: the newest brand, post, job and key.
  const [brand] = items(await api.get("/api/brands"));
  const post = await api.post("/api/content/create", {
    brandId: brand.brandId,
    channel: "instagram",
    topic: "Our autumn seasonal blend arrives in every café next week",
    goal: "announcement",
  });
  const job = await api.post("/api/video/jobs", {
    brandId: brand.brandId,
    script: "A real video of the user's own brand, which no docs click may cancel.",
    mode: "regular",
  });
  // A job that has finished stays as it is, so it can be compared; cancel it here, through the API.
  await api.delete(`/api/video/jobs/${job.jobId}`);
  const key = await api.post("/api/keys", { name: "Real integration key" });

  /** Everything the user had before the clicks, read again. Signed media URLs are fresh on each read. */
  const brandIds = items(await api.get("/api/brands")).map((item) => item.brandId as string);
  const snapshot = async () => ({
    brands: await Promise.all(brandIds.map((id) => api.get(`/api/brands/${id}`))),
    post: await api.get(`/api/posts/${post.postId}`),
    job: { ...(await api.get(`/api/video/jobs/${job.jobId}`)), videoUrl: null, thumbnailUrl: null } as Json,
    keys: items(await api.get("/api/keys")).filter((item) => item.keyId === key.keyId),
  });
  const before = await snapshot();
  expect(before.keys).toHaveLength(1);
  expect(before.job.status).toBe("canceled");

  for (const card of cards) {
    const safety = testSafetyOf(card);
    await page.goto(`/api-docs/${card.id}`);
    const panel = page.getByTestId("test-panel");
    await expect(panel.getByTestId("safety-note")).toHaveAttribute("data-safety", safety.kind);
    // Wait until the panel has filled what it fills from the user's data, as the old panel did.
    for (const name of placeholdersOf(card)) {
      if (safety.kind === "change" && name === safety.param) continue;
      if (PLACEHOLDER_SOURCES[name]) {
        await expect(panel.getByTestId(`param-${name}`), `${card.id}: {${name}}`).not.toHaveValue("");
      }
    }
    if (safety.kind === "create") {
      await expect(panel.getByTestId("safety-note"), card.id).toContainText("Send creates");
      await expect(panel.getByTestId("safety-note"), card.id).not.toContainText("{brandId}");
    }
    await panel.getByTestId("send-button").click();

    if (safety.kind === "change" && !safety.param) {
      // No path parameter: it acts on the signed-in account itself (delete-account). Send only opens a
      // confirmation that names the account; canceling it sends nothing.
      await expect(panel.getByTestId("confirm-summary"), card.id).toContainText(
        `your real account “${DEMO_LOGIN.email}”`,
      );
      await expect(panel.getByTestId("confirm-send"), card.id).toBeVisible();
      await panel.getByTestId("confirm-cancel").click();
      await expect(panel.getByTestId("confirm-change"), card.id).toHaveCount(0);
      await expect(panel.getByTestId("test-result"), card.id).toHaveCount(0);
    } else if (safety.kind === "change") {
      // The target is never one of the user's: empty, and Send only opens the confirmation.
      await expect(panel.getByTestId(`param-${safety.param}`), card.id).toHaveValue("");
      await expect(panel.getByTestId("confirm-change"), card.id).toBeVisible();
      await expect(panel.getByTestId("confirm-summary"), card.id).toContainText("chosen yet");
      await expect(panel.getByTestId("confirm-send")).toHaveCount(0);
      await expect(panel.getByTestId("test-result")).toHaveCount(0);
      if (card.id === "update-brand") await page.screenshot({ path: `${SHOTS}/safety-confirm-empty.png` });
    } else {
      await expect(panel.getByTestId("contract-verdict"), card.id).toBeVisible();
    }
  }

  // Typing a real id still asks first, and the confirmation names the brand and the change.
  await page.goto("/api-docs/update-brand");
  const panel = page.getByTestId("test-panel");
  await panel.getByTestId("param-brandId").fill(String(brand.brandId));
  await panel.getByTestId("send-button").click();
  await expect(panel.getByTestId("confirm-summary")).toContainText(`your real brand “${brand.name}”`);
  await expect(panel.getByTestId("confirm-summary")).toContainText("sets audience → ");
  await page.screenshot({ path: `${SHOTS}/safety-confirm-real.png` });
  await panel.getByTestId("confirm-cancel").click();
  await expect(panel.getByTestId("confirm-change")).toHaveCount(0);
  await expect(panel.getByTestId("test-result")).toHaveCount(0);

  expect(await snapshot()).toEqual(before);
});

test("a sandbox resource takes the change after the confirmation, and the user's own data stays as it was", async ({
  page,
}) => {
  const api = apiOf(page.request, await signIn(page));
  const [brand] = items(await api.get("/api/brands"));

  await page.goto("/api-docs/update-brand");
  const panel = page.getByTestId("test-panel");
  await panel.getByTestId("use-sandbox").click();
  await expect(panel.getByTestId("sandbox-target")).toContainText("Sandbox — API docs test");
  const sandboxId = await panel.getByTestId("param-brandId").inputValue();
  expect(sandboxId).not.toBe(brand.brandId);
  await panel.getByTestId("send-button").click();
  await expect(panel.getByTestId("confirm-summary")).toContainText("changes the sandbox brand");
  await expect(panel.getByTestId("confirm-summary")).toContainText(sandboxId);
  await page.screenshot({ path: `${SHOTS}/safety-confirm-sandbox.png` });
  await panel.getByTestId("confirm-send").click();
  await expect(panel.getByTestId("contract-verdict")).toHaveAttribute("data-verdict", "pass");

  const sandbox = await api.get(`/api/brands/${sandboxId}`);
  expect(sandbox.name).toBe("Sandbox — API docs test");
  expect(sandbox.audience).toMatch(/^Busy urban professionals/);
  expect(await api.get(`/api/brands/${brand.brandId}`)).toEqual(brand);

  // A second sandbox use reuses the same sandbox brand instead of making another.
  await page.reload();
  await panel.getByTestId("use-sandbox").click();
  await expect(panel.getByTestId("param-brandId")).toHaveValue(sandboxId);
});
