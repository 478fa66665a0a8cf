import { expect, test } from "@playwright/test";

test("the front page shows the product and a live backend check", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("on-brand post");
  // Signed out, the header offers only what a visitor can open.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["API docs"]);
  const status = page.getByTestId("backend-status");
  await expect(status).toHaveAttribute("data-status", "ok");
  await expect(status).toContainText("database ok");
  await page.screenshot({ path: "screenshots/home.png", fullPage: true });

  const health = await page.evaluate(async () => {
    const response = await fetch("/api/health");
    return { status: response.status, body: await response.json() };
  });
  expect(health.status).toBe(200);
  expect(health.body.checks.database).toBe("ok");
});
