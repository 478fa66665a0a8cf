import { expect, test } from "@playwright/test";

test("sign up, sign out, be sent to sign-in and back, create an API key", async ({ page }) => {
  const email = `e2e-${Date.now()}@example.test`;
  const password = "e2e-password-1";

  await page.goto("/signup");
  await page.getByLabel("Name").fill("E2E Marketer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/brands/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);

  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings$/);

  await expect(page.getByText("No keys yet")).toBeVisible();
  await page.getByLabel("Key name").fill("Playwright key");
  await page.getByRole("button", { name: "Create key" }).click();
  const newKey = page.getByTestId("new-api-key");
  await expect(newKey).toContainText(/bsk_[A-Za-z0-9_-]{32}/);
  const key = (await newKey.locator("code").textContent()) ?? "";
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
  await expect(page.getByTestId("api-key-row")).toContainText(`bsk_…${key.slice(-4)}`);
  await page.screenshot({ path: "screenshots/settings.png", fullPage: true });

  // The key works from a script, the way an integrator uses it.
  const listed = await page.request.get("/api/keys", { headers: { authorization: `Bearer ${key}` } });
  expect(listed.status()).toBe(200);

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("No keys yet")).toBeVisible();
  const afterRevoke = await page.request.get("/api/keys", { headers: { authorization: `Bearer ${key}` } });
  expect(afterRevoke.status()).toBe(401);
});

test("a wrong password shows a clear error", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("demo@brandstudio.dev");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await page.screenshot({ path: "screenshots/login.png", fullPage: true });
});
