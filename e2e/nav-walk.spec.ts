import { expect, test } from "@playwright/test";
import { appPages, newMarketer, watchForErrors } from "./support/marketer";

/**
 * The first-day path crashed when moving between pages in the app (a query key held two shapes). This walks
 * every link of the header from every page, in the app (client navigation, no reload), and fails on any page
 * error, console error or error screen.
 */
test("every header link from every page navigates in-app without an error", async ({ page }) => {
  test.setTimeout(600_000);
  const marketer = await newMarketer(page, "walk");
  const problems = watchForErrors(page);
  const header = page.getByRole("banner");
  const links = await header.getByRole("link").evaluateAll((anchors) =>
    anchors.map((anchor) => ({
      name: (anchor.textContent ?? "").trim(),
      href: anchor.getAttribute("href") ?? "",
    })),
  );
  expect(links.map((link) => link.href)).toEqual(
    expect.arrayContaining(["/", "/studio", "/brands", "/videos", "/api-docs", "/settings"]),
  );

  for (const start of appPages(marketer)) {
    await page.goto(start);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Gone on a full reload: proves each step below is a client-side navigation.
    await page.evaluate(() => {
      (window as unknown as { __walk: string }).__walk = "in-app";
    });
    for (const link of links) {
      await header.locator(`a[href="${link.href}"]`).first().click();
      await expect.poll(() => new URL(page.url()).pathname, `${start} → ${link.href}`).toBe(link.href);
      await expect(page.getByRole("heading", { level: 1 }), `${start} → ${link.href}`).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expect(page.getByText(/This page couldn.t load|Application error/)).toHaveCount(0);
      expect(
        await page.evaluate(() => (window as unknown as { __walk?: string }).__walk),
        `${start} → ${link.href} reloaded the page`,
      ).toBe("in-app");
      expect(problems, `${start} → ${link.href}`).toEqual([]);
      // A link to the page itself adds no history entry; otherwise back to the start page, in the app too.
      if (new URL(start, page.url()).pathname === link.href) continue;
      await page.goBack();
      await expect.poll(() => page.url()).toContain(start.split("?")[0]);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(problems, `${link.href} → back to ${start}`).toEqual([]);
      expect(
        await page.evaluate(() => (window as unknown as { __walk?: string }).__walk),
        `${link.href} → back to ${start} reloaded the page`,
      ).toBe("in-app");
    }
  }
  expect(problems).toEqual([]);
});

test("the first-day path: brands, studio, brands, videos, new video, all in-app", async ({ page }) => {
  await newMarketer(page, "first-day");
  const problems = watchForErrors(page);
  await page.goto("/brands");
  await expect(page.getByTestId("brand-card")).toHaveCount(1);
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Studio" }).click();
  await expect(page.getByRole("combobox", { name: /^Brand/ })).toContainText("Harbour Bakery");
  await nav.getByRole("link", { name: "Brands" }).click();
  await expect(page.getByTestId("brand-card")).toHaveCount(1);
  await nav.getByRole("link", { name: "Videos" }).click();
  await page
    .getByRole("main")
    .getByRole("link", { name: /New video/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/videos\/new$/);
  await expect(page.getByRole("combobox", { name: /^Brand/ })).toContainText("Harbour Bakery");
  expect(problems).toEqual([]);
});
