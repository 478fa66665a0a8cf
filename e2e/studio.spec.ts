import { expect, type Page, test } from "@playwright/test";
import { DEMO_LOGIN } from "@/db/seed";

const TOPIC = "Our new Ethiopian single-origin espresso, roasted in small batches";
const EDIT = "Edited first draft: come taste it at the café this weekend.";

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel("Email").fill(DEMO_LOGIN.email);
  await page.getByLabel("Password").fill(DEMO_LOGIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

const caption = (page: Page) => page.getByLabel("Caption", { exact: true });

test("write a brief, generate, edit, regenerate, go back to the first draft, save and reload", async ({
  page,
}) => {
  await signIn(page, "/studio");
  await expect(page.getByText("No draft yet")).toBeVisible();
  await expect(page.getByRole("combobox", { name: /^Brand/ })).toContainText("Northwind Coffee");
  await page.screenshot({ path: "screenshots/studio-empty.png", fullPage: true });

  await page.getByText("Instagram", { exact: true }).click();
  await page.getByLabel("Topic").fill(TOPIC);
  await page.getByLabel("Goal").selectOption("sales");

  // Hold the answer back a moment so the generation state can be seen.
  await page.route("**/api/content/create", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Writing your draft" })).toBeVisible();
  await page.screenshot({ path: "screenshots/studio-generating.png", fullPage: true });

  await expect(page).toHaveURL(/\/studio\/pst_/);
  const firstUrl = page.url();
  await expect(caption(page)).toHaveValue(/Ethiopian single-origin espresso/);
  const firstCaption = await caption(page).inputValue();
  await expect(page.getByTestId("caption-count")).toHaveText(
    `${firstCaption.length.toLocaleString("en")} / 2,200`,
  );
  await expect(page.getByTestId("post-preview")).toHaveAttribute("data-channel", "instagram");
  // A fresh draft is kept in the brief's history, but the user has not saved anything yet.
  await expect(page.getByTestId("save-status")).toHaveText("Not edited yet");
  await expect(page.getByRole("link", { name: "Make a video →" })).toHaveAttribute(
    "href",
    `/videos/new?postId=${firstUrl.split("/").at(-1)}`,
  );
  await page.screenshot({ path: "screenshots/studio-instagram.png", fullPage: true });

  await caption(page).fill(EDIT);
  await expect(page.getByTestId("caption-count")).toHaveText(`${EDIT.length} / 2,200`);
  await expect(page.getByTestId("save-status")).toHaveText("Unsaved changes");
  await expect(page.getByTestId("post-preview")).toContainText(EDIT.slice(0, 40));

  await page.getByRole("button", { name: "Regenerate" }).click();
  await expect(page).not.toHaveURL(firstUrl);
  await expect(page).toHaveURL(/\/studio\/pst_/);
  await expect(caption(page)).not.toHaveValue(EDIT);
  await expect(caption(page)).not.toHaveValue(firstCaption);
  const drafts = page.getByRole("navigation", { name: "Drafts" }).getByRole("button");
  await expect(drafts).toHaveCount(2);

  await drafts.filter({ hasText: "Draft 1" }).click();
  await expect(page).toHaveURL(firstUrl);
  await expect(caption(page)).toHaveValue(EDIT);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved");

  await page.reload();
  await expect(caption(page)).toHaveValue(EDIT);
  await expect(page.getByRole("navigation", { name: "Drafts" }).getByRole("button")).toHaveCount(2);
  await expect(page.getByLabel("Topic")).toHaveValue(TOPIC);
});

test("hashtag chips keep the limit and the tag rules", async ({ page }) => {
  await signIn(page, "/studio");
  await page.getByText("LinkedIn", { exact: true }).click();
  await page.getByLabel("Topic").fill("How we pick the farms our beans come from");
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(caption(page)).toHaveValue(/farms/);

  const count = page.getByTestId("hashtag-count");
  const chips = page.getByRole("list", { name: "Hashtags" }).getByRole("listitem");
  const before = await chips.count();
  await expect(count).toHaveText(`${before} / 5`);
  await chips
    .first()
    .getByRole("button", { name: /^Remove #/ })
    .click();
  await expect(count).toHaveText(`${before - 1} / 5`);

  await page.getByLabel("New hashtag").fill("cold brew");
  await page.getByLabel("New hashtag").press("Enter");
  await expect(page.getByText("Use letters, digits or _ after the #")).toBeVisible();
  await page.getByLabel("New hashtag").fill("ColdBrew");
  await page.getByLabel("New hashtag").press("Enter");
  await expect(chips.filter({ hasText: "#ColdBrew" })).toHaveCount(1);
  await expect(count).toHaveText(`${before} / 5`);
  await page.screenshot({ path: "screenshots/studio-linkedin.png", fullPage: true });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
});

test("a telegram draft previews as a channel message, and errors show in words", async ({ page }) => {
  await signIn(page, "/studio");
  await page.getByText("Telegram", { exact: true }).click();
  await page.getByLabel("Topic").fill("Cold brew");
  await page.getByRole("button", { name: "Generate draft" }).click();
  const problem = page.getByRole("alert").filter({ hasText: "at least 3 words" });
  await expect(problem).toBeVisible();
  await expect(problem.getByRole("button", { name: "Retry" })).toHaveCount(0);

  await page.getByLabel("Topic").fill("We are opening a second café in Shoreditch on May 3");
  await page.getByLabel("Goal").selectOption("announcement");
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(page.getByTestId("post-preview")).toHaveAttribute("data-channel", "telegram");
  await expect(page.getByTestId("post-preview")).toContainText("Shoreditch");
  await page.screenshot({ path: "screenshots/studio-telegram.png", fullPage: true });
});
