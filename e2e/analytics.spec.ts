import { expect, test } from "@playwright/test";
import { expectAxeClean, shoot, signUpMarketer } from "./support/publishing-pages";

test("connect Telegram, publish, advance the fake's numbers, and see them in the studio and on the brand's analytics", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const headers = await signUpMarketer(page, "analytics", "Analytics Marketer");
  const telegramUrl = process.env.E2E_TELEGRAM_URL as string;
  const fake = await (
    await page.request.post(`${telegramUrl}/__fake/channels`, { data: { title: "Results News" } })
  ).json();
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Results Coffee", tone: "warm", voice: "short sentences" },
  });
  const { brandId } = await brand.json();

  // Before anything is published, the analytics page says so.
  await page.goto(`/brands/${brandId}/analytics`);
  await expect(page.getByRole("heading", { name: "No published posts yet" })).toBeVisible();
  await expectAxeClean(page, "brand analytics, empty");

  const created = await page.request.post("/api/content/create", {
    headers,
    data: { brandId, channel: "telegram", goal: "announcement", topic: "Our autumn blend arrives next week" },
  });
  const { postId } = await created.json();

  await page.goto(`/brands/${brandId}`);
  const panel = page.getByTestId("channels-panel");
  await panel.getByLabel("Bot token").fill(fake.botToken);
  await panel.getByLabel("Channel @username or id").fill(String(fake.chatId));
  await panel.getByRole("button", { name: "Connect Telegram" }).click();
  await expect(panel.getByText("Connected Results News.")).toBeVisible();

  await page.goto(`/studio/${postId}`);
  await page
    .getByTestId("publish-panel")
    .getByRole("button", { name: "Publish to Results News now" })
    .click();
  await expect(page.getByTestId("post-status")).toHaveText("published", { timeout: 30_000 });

  // The fake's channel gets reactions; an owner asks for the numbers now.
  await page.request.post(`${telegramUrl}/__fake/insights`, { data: { advance: 3 } });
  const results = page.getByRole("region", { name: /Results on Telegram/ });
  await expect(page.getByRole("heading", { name: "Results", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Refresh now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Reading the latest numbers" })).toBeVisible();
  // (9 👍 + 2 🔥) × 3 steps of the fake's growth.
  await expect(results.locator('[data-metric="reactions"]')).toHaveText("33", { timeout: 30_000 });
  await expect(results.locator('[data-metric="views"]')).toHaveText("Not available");
  await expect(results.getByText("Not available from Telegram's Bot API.").first()).toBeVisible();
  await results.getByText(/as a table/).click();
  await expect(results.getByRole("table")).toContainText("33");
  await expectAxeClean(page, "studio with results");
  await shoot(page, "analytics-studio-results");

  await page.goto(`/brands/${brandId}/analytics`);
  await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible();
  const interactions = page.locator("dl div").filter({ hasText: "Interactions" }).first();
  await expect(interactions).toContainText("33");
  await expect(page.getByTestId("top-posts")).toContainText("Interactions 33");
  await expect(page.getByRole("table", { name: /Engagement rate by the weekday and hour/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Why some numbers are missing" })).toBeVisible();
  await expect(page.getByText(/Telegram, views \(unavailable, 1 post\)/)).toBeVisible();
  await expectAxeClean(page, "brand analytics");
  await shoot(page, "analytics-brand");

  const csv = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  expect((await csv).suggestedFilename()).toMatch(/^analytics-brd_.+\.csv$/);
});
