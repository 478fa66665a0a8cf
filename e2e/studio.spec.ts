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

  await page.getByRole("button", { name: "Regenerate", exact: true }).click();
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

test("a draft streams in field by field: caption, then hashtags, then the media plan; Cancel saves nothing", async ({
  page,
}) => {
  await signIn(page, "/studio");
  // Record the order in which the streamed fields first appear on the page.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __streamOrder: string[] }).__streamOrder = seen;
    new MutationObserver(() => {
      for (const id of ["stream-caption", "stream-hashtags", "stream-media-plan"]) {
        if (!seen.includes(id) && document.querySelector(`[data-testid="${id}"]`)) seen.push(id);
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByText("Instagram", { exact: true }).click();
  await page.getByLabel("Topic").fill("Our cold brew is back for the summer, steeped for 18 hours");
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(page.getByTestId("stream-caption")).toBeVisible();
  // While it streams, the preview beside the editor already shows the caption as it grows.
  await expect(page.getByTestId("post-preview")).toContainText(/\w+/);
  await page.screenshot({ path: "/work/shots/studio/streaming-1280.png", fullPage: true });
  await expect(page).toHaveURL(/\/studio\/pst_/);
  await expect(caption(page)).toHaveValue(/cold brew/i);
  expect(await page.evaluate(() => (window as unknown as { __streamOrder: string[] }).__streamOrder)).toEqual(
    ["stream-caption", "stream-hashtags", "stream-media-plan"],
  );

  // Cancel a regeneration mid-stream: the draft on screen stays, and no new post is saved.
  const url = page.url();
  const session = await (await page.request.get("/api/auth/session")).json();
  const brandId = (
    await (
      await page.request.get(url.replace("/studio/", "/api/posts/"), {
        headers: { authorization: `Bearer ${session.accessToken}` },
      })
    ).json()
  ).brandId;
  const count = async () =>
    (
      await (
        await page.request.get(`/api/posts?brandId=${brandId}&limit=100`, {
          headers: { authorization: `Bearer ${session.accessToken}` },
        })
      ).json()
    ).items.length;
  const before = await count();
  // Press Cancel the moment the caption starts arriving (from inside the page, so a slow test runner cannot
  // miss the stream).
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="stream-caption"]')) return;
      const cancel = [...document.querySelectorAll("button")].find(
        (button) => button.textContent === "Cancel",
      );
      if (!cancel) return;
      observer.disconnect();
      (window as unknown as { __canceledAt: string }).__canceledAt =
        document.querySelector('[data-testid="stream-caption"]')?.textContent ?? "";
      cancel.click();
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await page.getByRole("button", { name: "Regenerate", exact: true }).click();
  await expect.poll(() => page.evaluate(() => "__canceledAt" in window)).toBe(true);
  await expect(page.getByTestId("stream-caption")).toHaveCount(0);
  await expect(page).toHaveURL(url);
  await expect(caption(page)).toHaveValue(/cold brew/i);
  // Long enough for the whole stream to have finished had it not been stopped.
  await page.waitForTimeout(4000);
  expect(await count()).toBe(before);
});

test("the brief is checked in the browser, with the error beside the Topic field", async ({ page }) => {
  await signIn(page, "/studio");
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/content/create")) sent.push(request.url());
  });
  await expect(page.getByText("at least 3 words and 15 characters")).toBeVisible();
  for (const topic of ["Cold brew", "a b c d e"]) {
    await page.getByLabel("Topic").fill(topic);
    await page.getByRole("button", { name: "Generate draft" }).click();
    const problem = page.getByRole("alert").filter({ hasText: "at least 3 words and 15 characters" });
    await expect(problem).toBeVisible();
    await expect(page.getByLabel("Topic")).toHaveAttribute("aria-invalid", "true");
  }
  await page.screenshot({ path: "/work/shots/studio/brief-error-1280.png", fullPage: true });
  expect(sent).toEqual([]);
  await page.getByLabel("Topic").fill("Three long words and more");
  await expect(page.getByRole("alert").filter({ hasText: "at least 3 words" })).toHaveCount(0);
});

test("save state, Copy caption, Details and the leave guard", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, "/studio");
  await page.getByLabel("Topic").fill("Meet the roasters behind our house blend this Saturday");
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(caption(page)).toHaveValue(/roasters/);
  await expect(page.getByTestId("save-status")).toHaveText("Not edited yet");
  await expect(page.getByText("brand-studio-local-1")).toBeHidden();
  await page.getByText("Details", { exact: true }).click();
  await expect(page.getByTestId("draft-details")).toContainText("Built-in writer");

  await page.getByRole("button", { name: "Copy caption" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.startsWith(await caption(page).inputValue())).toBe(true);

  await caption(page).fill("A caption the marketer wrote and has not saved yet.");
  await expect(page.getByTestId("save-status")).toHaveText("Unsaved changes");
  const dialogs: string[] = [];
  page.once("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Brands" }).click();
  await expect.poll(() => dialogs.length).toBe(1);
  expect(dialogs[0]).toContain("unsaved edits");
  await expect(page).toHaveURL(/\/studio\/pst_/);

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Brands" }).click();
  await expect(page).toHaveURL(/\/brands$/);
});

test("at phone width the editor and the preview are tabs", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "/studio");
  await page.getByLabel("Topic").fill("Our new oat flat white, now on the menu");
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(caption(page)).toBeVisible();
  await expect(page.getByTestId("post-preview")).toBeHidden();
  await page.screenshot({ path: "/work/shots/studio/studio-draft-390-edit.png", fullPage: true });
  await page.getByRole("tab", { name: "Preview" }).click();
  await expect(page.getByTestId("post-preview")).toBeVisible();
  await expect(caption(page)).toBeHidden();
  await page.screenshot({ path: "/work/shots/studio/studio-draft-390-preview.png", fullPage: true });
  await page.getByRole("tab", { name: "Edit" }).click();
  await expect(caption(page)).toBeVisible();
});
