import { expect, test } from "@playwright/test";
import { makeImage } from "../test/support/images";

test("create a brand, see the contract's messages, upload an avatar and watch it become ready", async ({
  page,
}) => {
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Brand Owner");
  await page.getByLabel("Email").fill(`brands-${Date.now()}@example.test`);
  await page.getByLabel("Password").fill("brands-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/brands$/);
  await expect(page.getByRole("heading", { name: "No brands yet" })).toBeVisible();
  await page.screenshot({ path: "/tmp/shots/brands-empty.png", fullPage: true });

  await page.getByRole("link", { name: "Create a brand" }).click();
  await expect(page).toHaveURL(/\/brands\/new$/);
  // Broken fields are refused with the contract's own messages, next to the fields.
  await page.getByLabel("Default hashtags").fill("coffee");
  await page.getByLabel("Primary colour", { exact: true }).fill("brown");
  await page.getByRole("button", { name: "Create brand" }).click();
  await expect(page.getByText("Give the brand a name.")).toBeVisible();
  await expect(page.getByText("A hashtag is # followed by letters, digits or _")).toBeVisible();
  await expect(page.getByText("The primary colour must be a hex colour like #1F2937.")).toBeVisible();
  await page.screenshot({ path: "/tmp/shots/brands-new-errors.png", fullPage: true });

  await page.getByLabel("Name").fill("Lighthouse Tea");
  await page.getByLabel("Tone").fill("calm and curious");
  await page.getByLabel("Voice").fill("We write like a well-read friend pouring you a cup.");
  await page.getByLabel("Always do").fill("name the tea garden\nsuggest a brewing time");
  await page.getByLabel("Never do").fill("promise health benefits");
  await page.getByLabel("Banned words").fill("detox");
  await page.getByLabel("Default hashtags").fill("#LighthouseTea #loose_leaf");
  await page.getByLabel("Primary colour", { exact: true }).fill("#0e7490");
  await page.getByRole("button", { name: "Create brand" }).click();

  await expect(page).toHaveURL(/\/brands\/brd_[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lighthouse Tea");
  await expect(page.getByLabel("Primary colour", { exact: true })).toHaveValue("#0E7490");
  const prompt = page.getByTestId("brand-prompt");
  for (const text of ["calm and curious", "name the tea garden", "promise health benefits", "detox"]) {
    await expect(prompt).toContainText(text);
  }
  const status = page.getByTestId("avatar-status").first();
  await expect(status).toHaveAttribute("data-status", "none");

  await page.getByLabel("Avatar image file").setInputFiles({
    name: "lighthouse.png",
    mimeType: "image/png",
    buffer: await makeImage({ width: 600, height: 600 }),
  });
  await expect(status).toHaveAttribute("data-status", /training|ready/);
  await expect(status).toHaveAttribute("data-status", "ready", { timeout: 30_000 });
  const frame = page.getByTestId("avatar-frame");
  await expect(frame).toBeVisible();
  // Visible is not loaded: under load the picture can still be on its way, so wait for its width.
  await expect.poll(() => frame.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(512);
  await page.screenshot({ path: "/tmp/shots/brands-settings-ready.png", fullPage: true });

  // Settings: a bad quota is refused next to the field; a good change is saved and reaches the prompt.
  await page.getByLabel("Monthly video quota").fill("5000");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("The monthly video quota can be at most 1000.")).toBeVisible();
  await page.getByLabel("Monthly video quota").fill("8");
  await page.getByLabel("Tone").fill("quiet and precise");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await expect(prompt).toContainText("quiet and precise");
  await expect(page.getByText("In effect now: 8 a month.")).toBeVisible();

  await page.getByRole("link", { name: "← Brands" }).click();
  const card = page.getByTestId("brand-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Lighthouse Tea");
  await expect(card).toContainText("quiet and precise");
  await expect(card.getByTestId("avatar-status")).toHaveAttribute("data-status", "ready");
  await page.screenshot({ path: "/tmp/shots/brands-list.png", fullPage: true });
});

test("another user's brand shows a plain not-found message", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Curious");
  await page.getByLabel("Email").fill(`curious-${Date.now()}@example.test`);
  await page.getByLabel("Password").fill("curious-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/brands$/);
  await page.goto("/brands/brd_someoneElsesBrand1");
  await expect(page.getByText("This brand does not exist, or it is not one of yours.")).toBeVisible();
});
