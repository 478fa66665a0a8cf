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
  // The header marks where the marketer is.
  await expect(nav.getByRole("link", { name: "Studio" })).toHaveAttribute("aria-current", "page");
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
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

test("an unknown address answers 404 with the site's own page, hydrated under the CSP", async ({ page }) => {
  const problems = watchForErrors(page, { expected404s: ["/nope", "/studio/nope/deeper"] });
  const response = await page.goto("/nope");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page).toHaveTitle("Page not found · Brand Studio");
  // The header hydrated: it read the session in the browser and offers Sign in.
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Home page" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Open the studio" })).toBeVisible();

  // Signed in, the way on is the brands list.
  await newMarketer(page, "lost");
  expect((await page.goto("/studio/nope/deeper"))?.status()).toBe(404);
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Go to your brands" }).click();
  await expect(page).toHaveURL(/\/brands$/);
  await expect(page.getByTestId("brand-card")).toHaveCount(1);
  expect(problems).toEqual([]);
});

test("a missing post, video or invitation shows only a notice and the way back", async ({ page }) => {
  await newMarketer(page, "missing");
  const notice = page.getByTestId("not-found-notice");

  await page.goto("/studio/pst_doesNotExist1");
  await expect(notice.getByRole("alert")).toHaveText(
    "This post does not exist, or it belongs to a brand you are not in.",
  );
  // No brief and no preview beside it.
  await expect(page.getByRole("heading", { name: "Brief" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /^Preview/ })).toHaveCount(0);
  await notice.getByRole("link", { name: "Back to the studio" }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await expect(page.getByRole("combobox", { name: /^Brand/ })).toContainText("Harbour Bakery");

  await page.goto("/videos/vid_doesNotExist1");
  await expect(notice.getByRole("heading", { level: 1, name: "Video not found" })).toBeVisible();
  await expect(notice.getByRole("alert")).toHaveText(
    "There is no such video job, or it belongs to a brand you are not in.",
  );
  await notice.getByRole("link", { name: "Back to your videos" }).click();
  await expect(page).toHaveURL(/\/videos$/);

  await page.goto("/invite/not-a-real-invitation-token");
  await expect(
    notice.getByRole("heading", { level: 1, name: "This invitation can't be used" }),
  ).toBeVisible();
  await expect(notice.getByRole("alert")).toContainText("This invitation link is not valid");
  await expect(notice).toContainText("Ask the brand's owner to send you a new invitation link.");
  await notice.getByRole("link", { name: "Go to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
});
