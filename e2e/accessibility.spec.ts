import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { newMarketer, studioPages } from "./support/marketer";

/**
 * Runs axe on what is on screen and fails on any violation, naming each one: the serious ones (contrast) and
 * the minor ones too (a role an element may not have, such as `<aside role="tabpanel">`).
 */
async function expectNoSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n` +
      violation.nodes
        .slice(0, 5)
        .map((node) => `    ${node.target.join(" ")}: ${node.failureSummary?.split("\n").join(" ")}`)
        .join("\n"),
  );
  expect(serious, `${label}\n${serious.join("\n")}`).toEqual([]);
}

async function settle(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test("signed out: home, sign-in, sign-up and not-found pages have no serious accessibility violations", async ({
  page,
}) => {
  for (const path of ["/", "/login", "/signup", "/nope", "/invite/not-a-real-invitation-token"]) {
    await page.goto(path);
    await settle(page);
    await expectNoSeriousViolations(page, path);
  }
});

test("signed in: every app page, and the studio with a draft at desktop and phone width", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const marketer = await newMarketer(page, "axe");
  const pages = [
    ...studioPages(marketer),
    "/calendar",
    "/review",
    `/brands/${marketer.brandId}/activity`,
    `/brands/${marketer.brandId}/members`,
  ];
  for (const path of pages) {
    await page.goto(path);
    await settle(page);
    await expectNoSeriousViolations(page, path);
  }
  await page.goto("/calendar");
  await settle(page);
  await page.getByRole("button", { name: "Week" }).click();
  await expect(page.getByTestId("calendar-title")).toContainText("Week of");
  await expectNoSeriousViolations(page, "/calendar, week view");

  // A Telegram draft: its preview (the "1 view · now" line) is on screen beside the editor.
  const telegram = await page.request.post("/api/content/create", {
    headers: marketer.headers,
    data: {
      brandId: marketer.brandId,
      channel: "telegram",
      topic: "the rye loaf is back on Fridays",
      goal: "announcement",
    },
  });
  expect(telegram.status(), await telegram.text()).toBe(201);
  await page.goto(`/studio/${(await telegram.json()).postId}`);
  await expect(page.locator('[data-testid="post-preview"][data-channel="telegram"]')).toContainText(
    "1 view · now",
  );
  await expectNoSeriousViolations(page, "studio with a Telegram draft");

  // The studio with a draft on screen (and its preview), at desktop and phone width.
  await page.goto(`/studio/${marketer.postId}`);
  await expect(page.getByLabel("Caption", { exact: true })).not.toHaveValue("");
  await expectNoSeriousViolations(page, "studio with a draft");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByLabel("Caption", { exact: true })).not.toHaveValue("");
  await expectNoSeriousViolations(page, "studio with a draft, phone width");
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("the API docs: the index, a card page, and a card page after a test run", async ({ page }) => {
  await newMarketer(page, "axe-docs");
  for (const path of ["/api-docs", "/api-docs/generate-post"]) {
    await page.goto(path);
    await settle(page);
    await expectNoSeriousViolations(page, path);
  }
  // A card page after its test button ran: the response panel is part of the page.
  await page.goto("/api-docs/list-brands");
  await page.getByTestId("send-button").click();
  await expect(page.getByTestId("contract-verdict")).toBeVisible();
  await expectNoSeriousViolations(page, "/api-docs/list-brands after a test run");
});

test("keyboard focus is visible on the channel picker's hidden radios", async ({ page }) => {
  await newMarketer(page, "focus");
  await page.goto("/studio");
  const label = page.locator("label", { has: page.getByRole("radio", { name: "LinkedIn" }) });
  const outline = () => label.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(await outline()).toBe("none");
  await page.getByRole("combobox", { name: /^Brand/ }).focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: "LinkedIn" })).toBeFocused();
  expect(await outline()).not.toBe("none");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("radio", { name: "Instagram" })).toBeChecked();
  const instagram = page.locator("label", { has: page.getByRole("radio", { name: "Instagram" }) });
  expect(await instagram.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe("none");
});
