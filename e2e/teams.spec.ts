import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";

/**
 * A brand as a team in the browser: an owner invites by email (the app sends it through a real SMTP server
 * started by e2e/global-setup.ts), the invitee follows the emailed link, signs up and joins as an editor,
 * drafts and submits; the owner asks for a change, then approves. Then each role sees only what it may do.
 */

const SHOTS = "screenshots";
const PASSWORD = "e2e-password-1";
const stamp = () => `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function expectAxeClean(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => `${n.target}`).join("; ")}`),
    what,
  ).toEqual([]);
}

/** Signs up through the pages in a fresh browser context; returns the page and the session's bearer header. */
async function signUp(browser: Browser, label: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `e2e-${label}-${stamp()}@example.test`;
  await page.goto("/signup");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  return { page, email, headers: await bearer(page) };
}

async function bearer(page: Page) {
  const session = await (await page.request.get("/api/auth/session")).json();
  return { authorization: `Bearer ${session.accessToken}` };
}

/** What the app emailed to `address`, read from the SMTP sink's mailbox (test/support/smtp-sink.ts). */
async function mailTo(page: Page, address: string) {
  const mailbox = process.env.E2E_MAILBOX_URL;
  expect(mailbox, "global setup starts the SMTP sink").toBeTruthy();
  const response = await page.request.get(`${mailbox}/mail?to=${encodeURIComponent(address)}`, {
    timeout: 20_000,
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { from: string; to: string[]; text: string };
}

async function newBrand(page: Page, headers: Record<string, string>, name: string) {
  const response = await page.request.post("/api/brands", {
    headers,
    data: { name, tone: "warm and neighbourly", voice: "short sentences, no jargon" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).brandId as string;
}

test("invite by email, join as an editor, draft and submit; the owner asks for a change, then approves", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const owner = await signUp(browser, "owner", "Olive Owner");
  const brandId = await newBrand(owner.page, owner.headers, "Harbour Bakery");

  // The owner turns approval on in the brand form.
  await owner.page.goto(`/brands/${brandId}`);
  const approval = owner.page.getByRole("checkbox", { name: /Posts need approval/ });
  await expect(approval).not.toBeChecked();
  await approval.check();
  await owner.page.getByRole("button", { name: "Save changes" }).click();
  await expect(owner.page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const saved = await owner.page.request.get(`/api/brands/${brandId}`, { headers: owner.headers });
  expect((await saved.json()).requiresApproval).toBe(true);
  await owner.page.getByRole("checkbox", { name: /Posts need approval/ }).scrollIntoViewIfNeeded();
  await owner.page.screenshot({ path: `${SHOTS}/team-brand-approval-1280.png` });

  // The owner invites by email on the Members page.
  const inviteeEmail = `e2e-invitee-${stamp()}@example.test`;
  await owner.page.goto(`/brands/${brandId}/members`);
  await expect(owner.page.getByRole("heading", { name: "Members" })).toBeVisible();
  await owner.page.getByLabel("Email").fill(inviteeEmail);
  await owner.page.getByRole("combobox", { name: /^Role(?! of)/ }).selectOption("editor");
  await owner.page.getByRole("button", { name: "Invite" }).click();
  await expect(
    owner.page.getByRole("status").filter({ hasText: `We emailed the invitation to ${inviteeEmail}.` }),
  ).toBeVisible();
  const invitations = owner.page.getByRole("listitem").filter({ hasText: inviteeEmail });
  await expect(invitations).toContainText("editor");
  await expect(invitations).toContainText("pending");
  await shoot(owner.page, "team-members");

  // The email arrived at the SMTP server: from the configured sender, naming the brand, the inviter, the role.
  const mail = await mailTo(owner.page, inviteeEmail);
  expect(mail.from).toBe("studio@example.test");
  expect(mail.text).toContain('Olive Owner invited you to join the brand "Harbour Bakery"');
  expect(mail.text).toContain("as editor");
  const link = mail.text.match(/Accept the invitation: (\S+)/)?.[1] ?? "";
  expect(link).toMatch(new RegExp(`^${process.env.E2E_BASE_URL}/invite/[A-Za-z0-9_-]{40,}$`));

  // The owner opening it is told they are in the brand already: no Join, and the link stays open.
  await owner.page.goto(link);
  await expect(owner.page.getByTestId("already-member")).toContainText(
    "You are already a member of Harbour Bakery as owner",
  );
  await expect(owner.page.getByRole("button", { name: /^Join/ })).toHaveCount(0);
  await expectAxeClean(owner.page, "invitation, already a member");
  await shoot(owner.page, "team-invitation-already-member");

  // The invitee follows the link, creates an account from there and joins.
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link);
  await expect(invitee.getByTestId("invitation-summary")).toContainText(
    `Olive Owner invited ${inviteeEmail} to Harbour Bakery as editor`,
  );
  await shoot(invitee, "team-invitation");
  await invitee.getByRole("link", { name: "Create an account" }).click();
  await invitee.getByLabel("Name").fill("Eddie Editor");
  await invitee.getByLabel("Email").fill(inviteeEmail);
  await invitee.getByLabel("Password").fill(PASSWORD);
  await invitee.getByRole("button", { name: "Create account" }).click();
  await expect(invitee).toHaveURL(/\/invite\//);
  await invitee.getByRole("button", { name: "Join Harbour Bakery" }).click();
  await expect(invitee).toHaveURL(new RegExp(`/brands/${brandId}$`));
  await expect(invitee.getByTestId("my-role")).toHaveText("Your role: editor");
  await expect(invitee.getByRole("note")).toContainText("Only an owner can change its settings");

  // The link is used up.
  const again = await inviteeContext.newPage();
  await again.goto(link);
  await expect(again.getByText("This invitation has already been used.")).toBeVisible();
  await again.close();

  // The editor drafts in the studio and submits it for review.
  await invitee.goto("/studio");
  await expect(invitee.getByRole("combobox", { name: /^Brand/ })).toContainText("Harbour Bakery");
  await invitee.getByText("Instagram", { exact: true }).click();
  await invitee.getByLabel("Topic").fill("our sourdough starter turns ten this week");
  await invitee.getByRole("button", { name: "Generate draft" }).click();
  await expect(invitee).toHaveURL(/\/studio\/pst_/);
  const postPath = new URL(invitee.url()).pathname;
  const review = invitee.getByTestId("review-panel");
  await expect(review.getByTestId("post-status")).toHaveText("draft");
  await expect(review.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await review.getByLabel("Comment").fill("First go at the anniversary post.");
  await review.getByRole("button", { name: "Submit for review" }).click();
  await expect(review.getByTestId("post-status")).toHaveText("in review");
  // An editor does not publish: the panel says who does.
  await expect(invitee.getByTestId("publish-not-allowed")).toContainText("an owner publishes");

  // The owner finds it on the Review page and asks for a change.
  await owner.page.goto("/review");
  const waiting = owner.page.getByRole("link", { name: "our sourdough starter turns ten this week" });
  await expect(waiting).toBeVisible();
  await expect(owner.page.getByText("Note from the author: First go at the anniversary post.")).toBeVisible();
  await shoot(owner.page, "team-review");
  await waiting.click();
  await expect(owner.page).toHaveURL(new RegExp(`${postPath}$`));
  const ownerReview = owner.page.getByTestId("review-panel");
  await ownerReview.getByLabel("Comment").fill("Name the bread, please.");
  await ownerReview.getByRole("button", { name: "Request changes" }).click();
  await expect(ownerReview.getByTestId("post-status")).toHaveText("draft");
  await expect(ownerReview).toContainText("Changes requested");
  await expect(ownerReview).toContainText("“Name the bread, please.”");

  // The editor sees the comment, edits, saves and submits again.
  await invitee.reload();
  await expect(review).toContainText("“Name the bread, please.”");
  const caption = invitee.getByLabel("Caption", { exact: true });
  await caption.fill(`${await caption.inputValue()} Our country sourdough, ten years old.`);
  await invitee.getByRole("button", { name: "Save", exact: true }).click();
  await expect(invitee.getByTestId("save-status")).toHaveText("Saved");
  await review.getByRole("button", { name: "Submit for review" }).click();
  await expect(review.getByTestId("post-status")).toHaveText("in review");

  // The owner approves.
  await owner.page.reload();
  await expect(ownerReview.getByTestId("post-status")).toHaveText("in review");
  await ownerReview.getByRole("button", { name: "Approve" }).click();
  await expect(ownerReview.getByTestId("post-status")).toHaveText("approved");
  await owner.page.goto("/review");
  await expect(owner.page.getByText("Nothing waits for your review.")).toBeVisible();

  // The brand's activity shows who did what, newest first.
  await owner.page.goto(`/brands/${brandId}/activity`);
  const entry = (action: string) => owner.page.locator(`li[data-action="${action}"]`);
  await expect(owner.page.locator("li[data-action]").first()).toHaveAttribute("data-action", "post.approved");
  await expect(entry("post.approved")).toContainText(`${owner.email} approved a post`);
  await expect(entry("invitation.created")).toContainText(`invited ${inviteeEmail} as editor`);
  await expect(entry("member.joined")).toContainText(`${inviteeEmail} joined the brand as editor`);
  await expect(entry("post.submitted")).toHaveCount(2);
  await expect(entry("post.submitted").last()).toContainText(`${inviteeEmail} submitted a post for review`);
  await expect(entry("post.changes_requested")).toContainText("“Name the bread, please.”");
  await expect(entry("brand.updated")).toContainText("(requires approval)");
  await shoot(owner.page, "team-activity");
  await expectAxeClean(owner.page, "activity page");
  await owner.page.goto(`/brands/${brandId}/members`);
  await expect(owner.page.getByRole("listitem").filter({ hasText: inviteeEmail }).first()).toBeVisible();
  await expectAxeClean(owner.page, "members page");

  await inviteeContext.close();
  await owner.page.context().close();
});

test("at 390 px a long email's invitation stays inside the page; Copy puts the link on the clipboard; inviting again re-issues it", async ({
  browser,
}) => {
  const owner = await signUp(browser, "copy-owner", "Olive Owner");
  await owner.page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const brandId = await newBrand(owner.page, owner.headers, "Long Address Ltd");
  const page = owner.page;
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/brands/${brandId}/members`);
  const email = `e2e-a-rather-long-mailbox-for-the-agency-team-${stamp()}@a-very-long-client-domain.example.test`;
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Invite" }).click();
  const notice = page.getByRole("status").filter({ hasText: `We emailed the invitation to ${email}.` });
  await expect(notice).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: email })).toContainText("pending");
  const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  expect(await scrollWidth()).toBeLessThanOrEqual(390);

  // Copy puts the link on the clipboard and says so.
  const link = await notice.getByTestId("invitation-link").inputValue();
  expect(link).toMatch(new RegExp(`^${process.env.E2E_BASE_URL}/invite/[A-Za-z0-9_-]{40,}$`));
  await notice.getByRole("button", { name: "Copy link" }).click();
  await expect(notice.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await shoot(page, "team-members-long-email");
  await page.setViewportSize({ width: 390, height: 900 });

  // The same email again, in capitals: the open invitation gets a new link, and there is still one row.
  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Invite" }).click();
  const reissued = page.getByRole("status").filter({ hasText: "already had an invitation" });
  await expect(reissued).toBeVisible();
  await expect(reissued.getByTestId("invitation-link")).not.toHaveValue(link);
  await expect(page.getByRole("listitem").filter({ hasText: email })).toHaveCount(1);
  expect(await scrollWidth()).toBeLessThanOrEqual(390);
  expect((await page.request.get(link.replace("/invite/", "/api/invitations/"))).status()).toBe(404);
  await page.context().close();
});

test("each role sees only the actions it may take", async ({ browser }) => {
  test.setTimeout(300_000);
  const owner = await signUp(browser, "role-owner", "Olive Owner");
  const brandId = await newBrand(owner.page, owner.headers, "Quay Roasters");
  const post = await owner.page.request.post("/api/content/create", {
    headers: owner.headers,
    data: { brandId, channel: "instagram", topic: "a new single origin from Huila", goal: "awareness" },
  });
  expect(post.status()).toBe(201);
  const { postId, mediaPlan } = (await post.json()) as {
    postId: string;
    mediaPlan: { items: { type: string }[] };
  };
  // The media plan's image buttons (generate, upload) follow the same rule as the caption.
  const imageButtons = mediaPlan.items.some((item) => item.type === "image");

  // An editor and a viewer join through invitations (accepted over the API; the journey above uses the pages).
  const members = {
    editor: await signUp(browser, "role-editor", "Eddie Editor"),
    viewer: await signUp(browser, "role-viewer", "Vera Viewer"),
  };
  for (const role of ["editor", "viewer"] as const) {
    const member = members[role];
    const invitation = await owner.page.request.post(`/api/brands/${brandId}/invitations`, {
      headers: owner.headers,
      data: { email: member.email, role },
    });
    expect(invitation.status()).toBe(201);
    const token = (await invitation.json()).link.split("/invite/")[1];
    const accepted = await member.page.request.post(`/api/invitations/${token}/accept`, {
      headers: member.headers,
      data: {},
    });
    expect(accepted.status()).toBe(200);
  }
  const pages = { owner: owner.page, editor: members.editor.page, viewer: members.viewer.page };

  for (const [role, page] of Object.entries(pages) as [keyof typeof pages, Page][]) {
    const owns = role === "owner";
    const writes = role !== "viewer";

    // Brand settings: only an owner edits the brand, sees its channels and the approval switch enabled.
    await page.goto(`/brands/${brandId}`);
    await expect(page.getByTestId("my-role")).toHaveText(`Your role: ${role}`);
    const name = page.getByRole("textbox", { name: /^Name/ });
    const approval = page.getByRole("checkbox", { name: /Posts need approval/ });
    if (owns) {
      await expect(name).toBeEnabled();
      await expect(approval).toBeEnabled();
      await expect(page.getByRole("heading", { name: "Channels" })).toBeVisible();
    } else {
      await expect(name).toBeDisabled();
      await expect(approval).toBeDisabled();
      await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
      await expect(page.getByRole("note").first()).toContainText("Only an owner can change its settings");
      await expect(page.getByRole("heading", { name: "Channels" })).toHaveCount(0);
    }

    // Members: only an owner changes roles, removes people and invites.
    await page.goto(`/brands/${brandId}/members`);
    await expect(
      page
        .getByRole("list", { name: "Members" })
        .getByRole("listitem")
        .filter({ hasText: members.viewer.email }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Invite someone" })).toHaveCount(owns ? 1 : 0);
    // The brand's only owner gets neither for themselves (it could only fail, 409 last_owner), but a note.
    await expect(page.getByRole("button", { name: "Remove" })).toHaveCount(owns ? 2 : 0);
    await expect(page.getByRole("combobox", { name: /^Role of / })).toHaveCount(owns ? 2 : 0);
    await expect(page.getByTestId("sole-owner-note")).toHaveCount(owns ? 1 : 0);
    if (role === "viewer") await shoot(page, "team-members-viewer");

    // The post in the studio.
    await page.goto(`/studio/${postId}`);
    const caption = page.getByLabel("Caption", { exact: true });
    await expect(caption).not.toHaveValue("");
    const panel = page.getByTestId("review-panel");
    if (writes) {
      await expect(caption).toBeEnabled();
      await expect(page.getByRole("button", { name: "Regenerate", exact: true })).toBeEnabled();
      await expect(page.getByRole("link", { name: "Make a video →" })).toBeVisible();
      if (imageButtons) await expect(page.getByRole("button", { name: /image$/ }).first()).toBeEnabled();
      await expect(panel.getByRole("button", { name: "Submit for review" })).toBeVisible();
    } else {
      await expect(caption).toBeDisabled();
      await expect(page.getByRole("button", { name: "Regenerate", exact: true })).toBeDisabled();
      await expect(page.getByRole("link", { name: "Make a video →" })).toHaveCount(0);
      if (imageButtons) await expect(page.getByRole("button", { name: /image$/ }).first()).toBeDisabled();
      await expect(panel.getByRole("button", { name: "Submit for review" })).toHaveCount(0);
      await expect(
        page.getByRole("note").filter({ hasText: "You are a viewer of this brand: you can read and copy" }),
      ).toBeVisible();
      await shoot(page, "team-studio-viewer");
    }
    await expect(panel.getByRole("button", { name: "Approve" })).toHaveCount(0); // a draft: nothing to approve
    if (owns) await expect(page.getByTestId("publish-not-allowed")).toHaveCount(0);
    else await expect(page.getByTestId("publish-not-allowed")).toContainText("an owner publishes");

    // Making a video and writing a draft.
    await page.goto("/videos/new");
    const make = page.getByRole("button", { name: "Make the video" });
    if (writes) await expect(make).toBeEnabled();
    else {
      await expect(make).toBeDisabled();
      await expect(page.getByRole("note")).toContainText("an editor or owner makes videos");
    }
    await page.goto("/studio");
    const generate = page.getByRole("button", { name: "Generate draft" });
    if (writes) await expect(generate).toBeEnabled();
    else {
      await expect(generate).toBeDisabled();
      await expect(page.getByRole("note")).toContainText("an editor or owner writes drafts");
    }
  }

  // The editor submits; only the owner is offered Approve, and only the owner's Review list shows it.
  const submitted = await members.editor.page.request.post(`/api/posts/${postId}/submit`, {
    headers: members.editor.headers,
    data: {},
  });
  expect(submitted.status()).toBe(200);
  for (const [role, page] of Object.entries(pages) as [keyof typeof pages, Page][]) {
    await page.goto(`/studio/${postId}`);
    const panel = page.getByTestId("review-panel");
    await expect(panel.getByTestId("post-status")).toHaveText("in review");
    await expect(panel.getByRole("button", { name: "Approve" })).toHaveCount(role === "owner" ? 1 : 0);
    await expect(panel.getByRole("button", { name: "Request changes" })).toHaveCount(
      role === "owner" ? 1 : 0,
    );
    await page.goto("/review");
    const listed = page.getByRole("link", { name: "a new single origin from Huila" });
    await expect(listed).toHaveCount(role === "owner" ? 1 : 0);
    if (role !== "owner") await expect(page.getByText("Nothing waits for your review.")).toBeVisible();
  }
  for (const page of Object.values(pages)) await page.context().close();
});
