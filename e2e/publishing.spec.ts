import { expect, test } from "@playwright/test";
import { expectAxeClean, SHOTS, shoot, signUpMarketer } from "./support/publishing-pages";

const signUp = (page: Parameters<typeof signUpMarketer>[0]) =>
  signUpMarketer(page, "publish", "Publishing Marketer");

/** datetime-local's value for a time in the brand's zone (UTC: the brand is made without one). */
const brandInput = (date: Date) => date.toISOString().slice(0, 16);

test("connect Telegram, publish now with a permalink, schedule one and see it publish on the calendar", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const headers = await signUp(page);
  const telegramUrl = process.env.E2E_TELEGRAM_URL as string;
  const fake = await (
    await page.request.post(`${telegramUrl}/__fake/channels`, {
      data: { title: "Northwind News", username: "northwind_news" },
    })
  ).json();

  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Northwind Coffee", tone: "warm and upbeat", voice: "short sentences" },
  });
  const { brandId } = await brand.json();
  const newPost = async () => {
    const created = await page.request.post("/api/content/create", {
      headers,
      data: {
        brandId,
        channel: "telegram",
        goal: "announcement",
        topic: "Our autumn blend arrives in every café next week",
      },
    });
    expect(created.status()).toBe(201);
    return (await created.json()).postId as string;
  };
  const first = await newPost();
  const second = await newPost();

  // Connect the channel in brand settings.
  await page.goto(`/brands/${brandId}`);
  const panel = page.getByTestId("channels-panel");
  await expect(panel.getByText("No channel connected yet.")).toBeVisible();
  await panel.getByLabel("Bot token").fill("123456:AAFwrong-token-000000000000000");
  await panel.getByLabel("Channel @username or id").fill("@northwind_news");
  await panel.getByRole("button", { name: "Connect Telegram" }).click();
  await expect(panel.getByText(/Telegram refused the bot token/)).toBeVisible();
  await panel.getByLabel("Bot token").fill(fake.botToken);
  await panel.getByRole("button", { name: "Connect Telegram" }).click();
  await expect(panel.getByText("Connected Northwind News.")).toBeVisible();
  await expect(panel.getByRole("list", { name: "Connected channels" })).toContainText("Northwind News");
  await expectAxeClean(page, "brand settings with a channel");
  await shoot(page, "publish-brand-channels");

  // The first post gets its video: made from the post, then "Use in post" on the video's page.
  const job = await page.request.post("/api/video/jobs", {
    headers,
    data: { brandId, mode: "regular", postId: first },
  });
  expect(job.status()).toBe(202);
  await page.goto(`/videos/${(await job.json()).jobId}`);
  await page.getByRole("button", { name: "Use in post" }).click({ timeout: 120_000 });
  await expect(page).toHaveURL(new RegExp(`/studio/${first}$`));

  // Publish it now from the studio: the video goes with it.
  const publish = page.getByTestId("publish-panel");
  await publish.getByRole("button", { name: "Publish to Northwind News now" }).click();
  const row = publish.getByTestId("publication-row").first();
  await expect(row.getByTestId("publication-status")).toHaveAttribute("data-status", "published", {
    timeout: 30_000,
  });
  // The post's own status follows, without a reload.
  await expect(page.getByTestId("post-status")).toHaveText("published");
  const sent = (await (await page.request.get(`${telegramUrl}/__fake/state`)).json()).messages.filter(
    (message: { chatId: unknown }) => String(message.chatId) === String(fake.chatId),
  );
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ method: "sendVideo" });
  expect(sent[0].video.kind === "url" ? sent[0].video.fetchedBytes : sent[0].video.bytes).toBeGreaterThan(
    10_000,
  );
  await expect(row.getByRole("link", { name: "View post" })).toHaveAttribute(
    "href",
    /^https:\/\/t\.me\/northwind_news\/\d+$/,
  );
  // The studio's own older parts carry a slate-400 hint (reported separately); this checks the Publish panel.
  await expectAxeClean(page, "studio's Publish panel with a published post", '[data-testid="publish-panel"]');
  await shoot(page, "publish-studio-published");

  // Schedule the second for a minute to come. The field takes whole minutes: "now + 60 s" cut to its minute
  // was anywhere from 60 s to a moment away, and the post could publish before the calendar below showed it
  // scheduled. The next whole minute at least 15 s away leaves time for that.
  await page.goto(`/studio/${second}`);
  await publish.getByLabel("At a time").check();
  const due = new Date(Math.ceil((Date.now() + 15_000) / 60_000) * 60_000);
  await publish.getByLabel("Publish at (UTC)").fill(brandInput(due));
  await publish.getByRole("button", { name: "Schedule for Northwind News" }).click();
  await expect(publish.getByTestId("publication-status").first()).toHaveAttribute("data-status", "scheduled");

  // It is on the calendar, and it publishes.
  await page.goto("/calendar");
  const items = page.getByTestId("calendar-item");
  await expect(items.filter({ hasText: "scheduled" })).toHaveCount(1);
  await expect(items.filter({ hasText: "published" })).toHaveCount(1);
  await expectAxeClean(page, "calendar");
  await shoot(page, "publish-calendar");
  await expect(items.filter({ hasText: "published" })).toHaveCount(2, { timeout: 120_000 });
  await items.filter({ hasText: "published" }).first().click();
  await expect(page).toHaveURL(/\/studio\/pst_/);
});

test("connect LinkedIn through its consent page and publish a text post with an image", async ({ page }) => {
  test.setTimeout(180_000);
  const headers = await signUp(page);
  const linkedinUrl = process.env.E2E_LINKEDIN_URL as string;
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Contoso Roasters", tone: "warm and upbeat", voice: "short sentences" },
  });
  const { brandId } = await brand.json();

  // A link to the start URL (from anywhere) connects nothing: it lands on the brand's page.
  await page.goto(`/api/channels/oauth/linkedin/start?brandId=${brandId}`);
  await expect(page).toHaveURL(new RegExp(`/brands/${brandId}\\?connect=linkedin$`));
  // Brand settings → Connect (a POST from this page) → LinkedIn's (the fake's) consent page → Allow → back in
  // brand settings, connected.
  await page.goto(`/brands/${brandId}`);
  const panel = page.getByTestId("channels-panel");
  // The list of connections loads on its own and moves the links below it: click once it has.
  await expect(panel.getByText("No channel connected yet.")).toBeVisible();
  await panel.getByRole("button", { name: "Connect LinkedIn" }).click();
  await expect(page).toHaveURL(new RegExp(`^${linkedinUrl}/oauth/v2/authorization\\?`));
  await page.getByRole("link", { name: "Allow" }).click();
  // LinkedIn found a company page (the e2e server sets LINKEDIN_ORGANIZATIONS): the owner chooses what to add.
  await expect(page).toHaveURL(new RegExp(`/brands/${brandId}/connect/linkedin$`));
  const member = page.getByRole("checkbox", { name: /Ada Marketer/ });
  const companyPage = page.getByRole("checkbox", { name: /Northwind Coffee/ });
  await expect(member).toBeChecked();
  await expect(companyPage).not.toBeChecked();
  await expectAxeClean(page, "LinkedIn choice");
  await shoot(page, "channels-linkedin-choice");
  await companyPage.check();
  await page.getByRole("button", { name: "Connect 2 selected" }).click();
  await expect(page).toHaveURL(new RegExp(`/brands/${brandId}\\?connected=chn_`));
  // The member, and the company page they administer.
  const connected = panel.getByRole("list", { name: "Connected channels" }).getByRole("listitem");
  await expect(connected).toHaveCount(2);
  await expect(connected.nth(0)).toContainText("Ada Marketer LinkedIn");
  await expect(connected.nth(1)).toContainText(
    "Northwind Coffee LinkedIn · linkedin.com/company/northwind-coffee",
  );
  await expect(panel.getByText(/and for the company pages you administer/)).toBeVisible();
  await expectAxeClean(page, "brand settings with LinkedIn", '[data-testid="channels-panel"]');
  await shoot(page, "channels-linkedin-pages");

  // A LinkedIn post with one image of its media plan.
  const created = await page.request.post("/api/content/create", {
    headers,
    data: { brandId, channel: "linkedin", goal: "announcement", topic: "Our autumn blend arrives next week" },
  });
  const { postId } = await created.json();
  const items = [
    { type: "image", aspectRatio: "1:1", description: "The roast", altText: "The autumn roast" },
  ];
  const patched = await page.request.patch(`/api/posts/${postId}`, {
    headers,
    data: { caption: "Autumn blend, next week.", hashtags: [], mediaPlan: { format: "single_image", items } },
  });
  expect(patched.status()).toBe(200);
  const drawn = await page.request.post(`/api/posts/${postId}/media/0/image/generate`, { headers });
  expect(drawn.status()).toBe(200);

  await page.goto(`/studio/${postId}`);
  const publish = page.getByTestId("publish-panel");
  await publish.getByRole("button", { name: "Publish to Ada Marketer now" }).click();
  const row = publish.getByTestId("publication-row").first();
  await expect(row.getByTestId("publication-status")).toHaveAttribute("data-status", "published", {
    timeout: 30_000,
  });
  await expect(row.getByRole("link", { name: "View post" })).toHaveAttribute(
    "href",
    /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+\/$/,
  );
  const state = await (await page.request.get(`${linkedinUrl}/__fake/state`)).json();
  const mine = state.posts.filter((post: { commentary: string }) =>
    post.commentary.startsWith("Autumn blend"),
  );
  expect(mine).toHaveLength(1);
  expect(mine[0].author).toMatch(/^urn:li:person:/);
  expect(mine[0].images).toHaveLength(1);
  expect(mine[0].images[0].bytes).toBeGreaterThan(1000);
  await expect(row).toContainText("Ada Marketer");

  // The same post on the company page: picked in the channel list, posted with the page as its author.
  await publish.getByLabel("Channel").selectOption({ label: "Northwind Coffee (LinkedIn)" });
  await publish.getByRole("button", { name: "Publish to Northwind Coffee now" }).click();
  const pageRow = publish.getByTestId("publication-row").filter({ hasText: "Northwind Coffee" });
  await expect(pageRow.getByTestId("publication-status")).toHaveAttribute("data-status", "published", {
    timeout: 30_000,
  });
  const after = await (await page.request.get(`${linkedinUrl}/__fake/state`)).json();
  const onPage = after.posts.filter(
    (post: { commentary: string; author: string }) =>
      post.commentary.startsWith("Autumn blend") && post.author === "urn:li:organization:2414183",
  );
  expect(onPage).toHaveLength(1);
  expect(onPage[0].images).toHaveLength(1);
  await expectAxeClean(page, "publish panel with two LinkedIn publications", '[data-testid="publish-panel"]');
  await shoot(page, "publish-linkedin-page");
});

test("an Instagram account allowed to publish only is asked once to reconnect for results", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const headers = await signUp(page);
  const instagramUrl = process.env.E2E_INSTAGRAM_URL as string;
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Contoso Roasters", tone: "warm and upbeat", voice: "short sentences" },
  });
  const { brandId } = await brand.json();
  const consent = new RegExp(`^${instagramUrl}/oauth/authorize\\?`);
  const back = new RegExp(`/brands/${brandId}\\?connected=chn_`);

  // As an account connected before Brand Studio asked for insights: publishing granted, insights not.
  await page.goto(`/brands/${brandId}`);
  const panel = page.getByTestId("channels-panel");
  await expect(panel.getByText("No channel connected yet.")).toBeVisible();
  await panel.getByRole("button", { name: "Connect Instagram" }).click();
  await expect(page).toHaveURL(consent);
  await page.getByRole("link", { name: "Grant publishing only" }).click();
  await expect(page).toHaveURL(back);
  const notice = panel.getByTestId("results-reconnect");
  await expect(notice).toContainText("Reconnect to allow results.");
  await expect(notice).toContainText("Publishing keeps working");
  await expectAxeClean(page, "channels with a results reconnect notice", '[data-testid="channels-panel"]');
  await shoot(page, "channels-results-reconnect");

  // Reconnect and allow everything: the notice is gone, the same connection stays.
  await notice.getByRole("button", { name: "Reconnect Instagram" }).click();
  await expect(page).toHaveURL(consent);
  await page.getByRole("link", { name: "Allow", exact: true }).click();
  await expect(page).toHaveURL(back);
  const connected = panel.getByRole("list", { name: "Connected channels" });
  await expect(connected).toContainText("Instagram · @acme_roasters");
  await expect(connected.getByRole("listitem")).toHaveCount(1);
  await expect(panel.getByTestId("results-reconnect")).toHaveCount(0);
});

test("connect Instagram through its consent page and publish a carousel of two images", async ({ page }) => {
  test.setTimeout(180_000);
  const headers = await signUp(page);
  const instagramUrl = process.env.E2E_INSTAGRAM_URL as string;
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Fabrikam Roasters", tone: "warm and upbeat", voice: "short sentences" },
  });
  const { brandId } = await brand.json();

  // Brand settings → Instagram's (the fake's) consent page → Allow → back, connected with name and avatar.
  await page.goto(`/brands/${brandId}`);
  const panel = page.getByTestId("channels-panel");
  // The list of connections loads on its own and moves the links below it: click once it has.
  await expect(panel.getByText("No channel connected yet.")).toBeVisible();
  await panel.getByRole("button", { name: "Connect Instagram" }).click();
  await expect(page).toHaveURL(new RegExp(`^${instagramUrl}/oauth/authorize\\?`));
  await page.getByRole("link", { name: "Allow", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/brands/${brandId}\\?connected=chn_`));
  const connected = panel.getByRole("list", { name: "Connected channels" });
  await expect(connected).toContainText("Acme Roasters");
  await expect(connected).toContainText("Instagram · @acme_roasters");
  const avatar = connected.locator("img").first();
  // Our copy of the account's picture (the platform's link expires), served from this site.
  await expect(avatar).toHaveAttribute("src", /^\/media\/channels\/chn_[\w-]+\/avatar-[0-9a-f]{12}\.png\?/);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expectAxeClean(page, "brand settings with Instagram", '[data-testid="channels-panel"]');
  await shoot(page, "channels-instagram");

  // An Instagram post with two drawn images: a carousel.
  const created = await page.request.post("/api/content/create", {
    headers,
    data: {
      brandId,
      channel: "instagram",
      goal: "announcement",
      topic: "Our autumn blend arrives next week",
    },
  });
  const { postId } = await created.json();
  const items = [
    { type: "image", aspectRatio: "1:1", description: "The roast", altText: "The autumn roast" },
    { type: "image", aspectRatio: "1:1", description: "The cup", altText: "A cup of the blend" },
  ];
  const patched = await page.request.patch(`/api/posts/${postId}`, {
    headers,
    data: {
      caption: "Two looks at the autumn blend.",
      hashtags: [],
      mediaPlan: { format: "carousel", items },
    },
  });
  expect(patched.status()).toBe(200);
  for (const index of [0, 1]) {
    const drawn = await page.request.post(`/api/posts/${postId}/media/${index}/image/generate`, { headers });
    expect(drawn.status()).toBe(200);
  }

  await page.goto(`/studio/${postId}`);
  const publish = page.getByTestId("publish-panel");
  await expect(publish.getByTestId("publish-channel")).toContainText("@acme_roasters");
  await publish.getByRole("button", { name: "Publish to Acme Roasters now" }).click();
  const row = publish.getByTestId("publication-row").first();
  await expect(row.getByTestId("publication-status")).toHaveAttribute("data-status", "published", {
    timeout: 45_000,
  });
  await expect(row.getByRole("link", { name: "View post" })).toHaveAttribute(
    "href",
    /^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/,
  );

  // The same post as a story: the choice shows for Instagram, and the history marks the story.
  await publish.getByRole("radio", { name: "Story" }).check();
  await expect(publish.getByTestId("publish-channel")).toContainText("the caption is not sent");
  await publish.getByRole("button", { name: "Publish as a story to Acme Roasters now" }).click();
  const storyRow = publish.getByTestId("publication-row").filter({ hasText: "Story" });
  await expect(storyRow.getByTestId("publication-status")).toHaveAttribute("data-status", "published", {
    timeout: 45_000,
  });
  await expect(storyRow.getByRole("link", { name: "View story" })).toHaveAttribute(
    "href",
    /^https:\/\/www\.instagram\.com\/stories\//,
  );
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // On a narrow screen the panel sits in the Preview tab.
    if (width < 768) await page.getByRole("tab", { name: "Preview" }).click();
    await expect(publish.getByTestId("publish-channel")).toBeVisible();
    await publish.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/publish-instagram-${width}.png`, fullPage: true });
  }
  const state = await (await page.request.get(`${instagramUrl}/__fake/state`)).json();
  const mine = state.posts.filter((post: { caption: string }) => post.caption.startsWith("Two looks"));
  expect(mine).toHaveLength(1);
  expect(mine[0].mediaType).toBe("CAROUSEL_ALBUM");
  expect(mine[0].media).toHaveLength(2);
  const stories = state.posts.filter((post: { mediaType: string }) => post.mediaType === "STORY");
  expect(stories).toHaveLength(1);
  expect(stories[0]).toMatchObject({ caption: "" });
  expect(stories[0].media).toHaveLength(1);
});
