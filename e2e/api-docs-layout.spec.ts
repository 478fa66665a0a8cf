import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { groupCards } from "@/lib/docs/card-groups";
import { loadCards } from "@/lib/docs/load-cards";

const cards = loadCards().map((loaded) => loaded.card);
const SHOTS = "/work/shots/docs";
fs.mkdirSync(SHOTS, { recursive: true });

/** Nothing on the page is wider than the window (no sideways scrolling on a phone). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("at 1280 px: a sidebar by resource, prose beside a sticky column of request, response and test panel", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/api-docs");
  await page.screenshot({ path: `${SHOTS}/index-1280.png`, fullPage: true });
  const sidebar = page.getByRole("navigation", { name: "API reference" }).last();
  for (const group of groupCards(cards)) {
    await expect(sidebar.getByText(group.name, { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: group.name, exact: true })).toBeVisible();
  }
  expect(groupCards(cards).map((group) => group.name)).toEqual([
    "Auth",
    "Brands",
    "Posts",
    "Video",
    "Publishing",
    "Webhooks",
    "System",
  ]);

  await page.goto("/api-docs/update-brand");
  await page.screenshot({ path: `${SHOTS}/card-update-brand-1280.png` });
  await page.screenshot({ path: `${SHOTS}/card-update-brand-1280-full.png`, fullPage: true });
  await page.getByRole("tab", { name: "Typed client" }).click();
  await page.screenshot({ path: `${SHOTS}/card-update-brand-1280-typed.png` });
  await page.getByRole("tab", { name: "curl" }).click();
  await expect(sidebar.getByRole("link", { name: /Update brand/ })).toHaveAttribute("aria-current", "page");
  const column = page.getByRole("complementary", { name: "Request and response examples" }).locator("> div");
  expect(await column.evaluate((element) => getComputedStyle(element).position)).toBe("sticky");
  // The code column stays on screen while the prose scrolls.
  await page.locator("#errors").scrollIntoViewIfNeeded();
  await expect(page.getByRole("tab", { name: "curl" })).toBeInViewport();

  // Each example once: the test body is the panel's editable body, the example response one block.
  await expect(page.getByText("Example response", { exact: true })).toHaveCount(1);
  await expect(page.locator('[data-field="testBody"]')).toHaveCount(1);

  // Anchored headings.
  await expect(page.getByRole("link", { name: "Link to Errors" })).toHaveAttribute("href", "#errors");

  // Keyboard: arrows move along the sidebar and across the request tabs.
  const links = sidebar.locator("a[data-sidebar-link]");
  await links.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(links.nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(links.last()).toBeFocused();
  await page.getByRole("tab", { name: "curl" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "fetch" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "fetch" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Typed client" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("snippet-typed")).toContainText('client.PATCH("/api/brands/{brandId}"');

  // No team-internal words where a reader expects prose.
  const text = await page.locator("article").innerText();
  expect(text).not.toMatch(/siteRequest|owner: |frontendLogic|backendLogic|mockOutput/);
});

test("at 390 px: one column, the sidebar folds away, nothing scrolls sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/api-docs");
  await page.screenshot({ path: `${SHOTS}/index-390.png`, fullPage: true });
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  for (const id of ["update-brand", "generate-video", "upload-avatar"]) {
    await page.goto(`/api-docs/${id}`);
    expect(await overflow(page), id).toBeLessThanOrEqual(0);
  }
  await page.goto("/api-docs/update-brand");
  await page.screenshot({ path: `${SHOTS}/card-update-brand-390.png`, fullPage: true });
  await page.screenshot({ path: `${SHOTS}/card-update-brand-390-top.png` });
  await page.getByTestId("test-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/card-update-brand-390-panel.png` });
  await page.getByText("All operations").click();
  await page
    .getByRole("link", { name: /Generate post/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/api-docs\/generate-post$/);
});
