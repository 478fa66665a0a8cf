import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";

test("add a webhook in settings, send a test event, read its delivery, delete it", async ({ page }) => {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  try {
    await page.goto("/signup");
    await page.getByLabel("Name").fill("Webhook Marketer");
    await page.getByLabel("Email").fill(`e2e-webhooks-${Date.now()}@example.test`);
    await page.getByLabel("Password").fill("e2e-password-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/brands/);

    await page.goto("/settings");
    await expect(page.getByText("No webhooks yet")).toBeVisible();
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await page.getByTestId("new-webhook-secret").locator("code").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByTestId("webhook-row")).toContainText(url);
    await expect(page.getByTestId("webhook-row")).toContainText("video.succeeded · video.failed");

    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByTestId("webhook-deliveries")).toContainText("succeeded", { timeout: 30_000 });
    await expect(page.getByTestId("webhook-deliveries")).toContainText("webhook.test");
    await expect(page.getByTestId("webhook-deliveries")).toContainText("HTTP 204");
    expect(new Webhook(secret).verify(received[0].body, received[0].headers)).toMatchObject({
      type: "webhook.test",
    });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "screenshots/settings-webhooks-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "screenshots/settings-webhooks-390.png", fullPage: true });

    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("No webhooks yet")).toBeVisible();
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
