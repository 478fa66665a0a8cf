import { expect, type Locator, test } from "@playwright/test";
import { formatInZone, toZonedInputValue, zonedDayKey } from "@/lib/contracts/time-zone";
import { expectAxeClean, SHOTS, shoot, signUpMarketer } from "./support/publishing-pages";

/** Far from both UTC and the browser's zone below, so a wrong zone shows as a wrong hour or day. */
const BRAND_ZONE = "Pacific/Auckland";
const DAY_MS = 86_400_000;

// The browser runs in another zone than the brand's: every time must still show, and be read, in the brand's.
test.use({ timezoneId: "America/Los_Angeles" });

const addDays = (key: string, days: number) =>
  new Date(Date.parse(`${key}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

test("the brand's time zone: set it, schedule in it, see it on the calendar, move the post by drag and by the Move control", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const headers = await signUpMarketer(page, "resched", "Rescheduling Marketer");

  // A new brand's form starts in the browser's zone.
  await page.goto("/brands/new");
  await expect(page.getByLabel("Time zone")).toHaveValue("America/Los_Angeles");
  await shoot(page, "resched-brand-new");

  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Kiwi Roasters", tone: "warm and upbeat", voice: "short sentences" },
  });
  const { brandId, timeZone } = await brand.json();
  expect(timeZone).toBe("UTC");

  // Set the zone in brand settings: a wrong name is refused next to the field, a right one saves.
  await page.goto(`/brands/${brandId}`);
  const zoneField = page.getByLabel("Time zone");
  await zoneField.fill("Pacific/Atlantis");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/is not a time zone\. Use an IANA name/)).toBeVisible();
  await zoneField.fill(BRAND_ZONE);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  expect((await (await page.request.get(`/api/brands/${brandId}`, { headers })).json()).timeZone).toBe(
    BRAND_ZONE,
  );
  await expect(page.getByText(/Now there: /)).toBeVisible();
  await expectAxeClean(page, "brand settings with a time zone");
  await page.getByLabel("Time zone").scrollIntoViewIfNeeded();
  await shoot(page, "resched-brand-settings");

  // A channel and a post, through the API.
  const telegramUrl = process.env.E2E_TELEGRAM_URL as string;
  const username = `kiwi_news_${Date.now() % 100000}`;
  const fake = await (
    await page.request.post(`${telegramUrl}/__fake/channels`, { data: { title: "Kiwi News", username } })
  ).json();
  const connected = await page.request.post("/api/channels", {
    headers,
    data: { brandId, channel: "telegram", botToken: fake.botToken, chatId: `@${username}` },
  });
  expect(connected.status(), await connected.text()).toBe(201);
  const created = await page.request.post("/api/content/create", {
    headers,
    data: { brandId, channel: "telegram", goal: "announcement", topic: "Our autumn blend arrives next week" },
  });
  const { postId } = await created.json();

  // Schedule at 09:00 on a coming day of the brand's calendar, typed in the brand's zone. The day and the
  // next one are in one month, so one month view shows both.
  const today = zonedDayKey(new Date(), BRAND_ZONE);
  let day = addDays(today, 1);
  if (addDays(day, 1).slice(0, 7) !== day.slice(0, 7)) day = `${addDays(day, 1).slice(0, 7)}-01`;
  const nextMonth = day.slice(0, 7) !== today.slice(0, 7);
  await page.goto(`/studio/${postId}`);
  const publish = page.getByTestId("publish-panel");
  await publish.getByLabel("At a time").check();
  await publish.getByLabel(`Publish at (${BRAND_ZONE})`).fill(`${day}T09:00`);
  await publish.getByRole("button", { name: "Schedule for Kiwi News" }).click();
  await expect(publish.getByTestId("publication-status").first()).toHaveAttribute("data-status", "scheduled");
  const [publication] = (
    await (
      await page.request.get(
        `/api/publications?brandId=${brandId}&postId=${postId}&from=${new Date(Date.now() - DAY_MS).toISOString()}&to=${new Date(Date.now() + 40 * DAY_MS).toISOString()}`,
        { headers },
      )
    ).json()
  ).items;
  expect(toZonedInputValue(new Date(publication.publishAt), BRAND_ZONE)).toBe(`${day}T09:00`);
  const shown = formatInZone(publication.publishAt, BRAND_ZONE);
  expect(shown).toMatch(/, 09:00 \(Pacific\/Auckland\)$/);
  await expect(publish.getByTestId("publication-time").first()).toHaveText(shown);

  // The calendar: the post is on its day of the brand's calendar, at 09:00.
  await page.goto("/calendar");
  await expect(page.getByTestId("calendar-zone")).toContainText(`Times in ${BRAND_ZONE}`);
  if (nextMonth) await page.getByRole("button", { name: "Next" }).click();
  const cell = (key: string): Locator => page.locator(`[data-testid="calendar-day"][data-day="${key}"]`);
  const item = page.locator(`[data-publication-id="${publication.publicationId}"]`);
  await expect(cell(day).locator(`[data-publication-id="${publication.publicationId}"]`)).toContainText(
    "09:00 · scheduled",
  );
  // Which post, where and when, in the chip's tooltip (its link's description, shown on hover and focus).
  await expect(item.getByRole("link")).toHaveAccessibleDescription(
    new RegExp(
      `Kiwi News \\(Telegram\\) · scheduled · ${shown.replace(/[()]/g, "\\$&")}.*Drag to another day to move it\\.`,
    ),
  );
  await expectAxeClean(page, "calendar with a scheduled post");
  await shoot(page, "resched-calendar");

  const publishAtNow = async () =>
    Date.parse(
      (await (await page.request.get(`/api/publications/${publication.publicationId}`, { headers })).json())
        .publishAt,
    );
  const original = Date.parse(publication.publishAt);

  // Drag it to the next day: it moves at once, and the API's publishAt is one whole day later.
  await item.dragTo(cell(addDays(day, 1)), { sourcePosition: { x: 4, y: 6 } });
  await expect(
    cell(addDays(day, 1)).locator(`[data-publication-id="${publication.publicationId}"]`),
  ).toContainText("09:00 · scheduled");
  await expect.poll(publishAtNow).toBe(original + DAY_MS);

  // The accessible way: its ⋯ button, a date, Move. Back to the first day.
  await item.getByRole("button", { name: /^Move or cancel the post of / }).click();
  const form = page.getByTestId("calendar-move-form");
  await expect(form.getByLabel("Move to")).toBeFocused();
  await expect(form.getByLabel("Move to")).toHaveValue(addDays(day, 1));
  await expectAxeClean(page, "calendar's Move form");
  await shoot(page, "resched-calendar-move");
  await form.getByLabel("Move to").fill(day);
  await form.getByRole("button", { name: "Move" }).click();
  await expect(form).toBeHidden();
  await expect(cell(day).locator(`[data-publication-id="${publication.publicationId}"]`)).toContainText(
    "09:00 · scheduled",
  );
  await expect.poll(publishAtNow).toBe(original);

  // A move the server refuses (a day in the past) is rolled back, with the reason shown.
  const past = addDays(today, -1);
  if (!nextMonth && (await cell(past).count()) > 0) {
    await item.dragTo(cell(past), { sourcePosition: { x: 4, y: 6 } });
    await expect(page.getByTestId("calendar-move-error")).toContainText("Pick a time in the future");
    await expect(cell(day).locator(`[data-publication-id="${publication.publicationId}"]`)).toBeVisible();
    expect(await publishAtNow()).toBe(original);
  }

  // Cancel from the same ⋯ button, after a confirmation: keeping it changes nothing; canceling takes its
  // actions away on the calendar and in the API.
  const confirm = page.getByTestId("publication-cancel-confirm");
  const openCancel = async () => {
    await item.getByRole("button", { name: /^Move or cancel the post of / }).click();
    await form.getByRole("button", { name: "Cancel publication…" }).click();
    await expect(form).toBeHidden();
    await expect(confirm.getByRole("button", { name: "Keep it scheduled" })).toBeFocused();
  };
  await openCancel();
  await expect(confirm).toContainText(`The post of ${shown} will not be published on Kiwi News (Telegram).`);
  await expectAxeClean(page, "calendar's cancel confirmation");
  await shoot(page, "resched-calendar-cancel");
  await confirm.getByRole("button", { name: "Keep it scheduled" }).click();
  await expect(confirm).toBeHidden();
  await expect(item).toHaveAttribute("data-status", "scheduled");
  await openCancel();
  await confirm.getByRole("button", { name: "Cancel publication" }).click();
  await expect(confirm).toBeHidden();
  await expect(item).toHaveAttribute("data-status", "canceled");
  await expect(item).toHaveAttribute("draggable", "false");
  await expect(item.getByRole("button")).toHaveCount(0);
  const canceled = await page.request.get(`/api/publications/${publication.publicationId}`, { headers });
  expect((await canceled.json()).status).toBe("canceled");

  // A published post cannot be dragged.
  const now = await page.request.post(`/api/posts/${postId}/publications`, {
    headers,
    data: { channelId: (await connected.json()).channelId },
  });
  expect(now.status()).toBe(202);
  await page.getByRole("button", { name: "Today" }).click();
  const published = page.locator(`[data-publication-id="${(await now.json()).publicationId}"]`);
  await expect(published).toHaveAttribute("data-status", "published", { timeout: 30_000 });
  await expect(published).toHaveAttribute("draggable", "false");
  await expect(published.getByRole("button")).toHaveCount(0);
});

test("the publish panel: an owner changes a scheduled post's time in the brand's zone, then cancels it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const headers = await signUpMarketer(page, "panel-time", "Panel Marketer");
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Harbour Beans", tone: "warm", voice: "short sentences", timeZone: BRAND_ZONE },
  });
  expect(brand.status(), await brand.text()).toBe(201);
  const { brandId } = await brand.json();
  const telegramUrl = process.env.E2E_TELEGRAM_URL as string;
  const username = `harbour_${Date.now() % 100000}`;
  const fake = await (
    await page.request.post(`${telegramUrl}/__fake/channels`, { data: { title: "Harbour News", username } })
  ).json();
  const connected = await page.request.post("/api/channels", {
    headers,
    data: { brandId, channel: "telegram", botToken: fake.botToken, chatId: `@${username}` },
  });
  expect(connected.status(), await connected.text()).toBe(201);
  const { postId } = await (
    await page.request.post("/api/content/create", {
      headers,
      data: {
        brandId,
        channel: "telegram",
        goal: "announcement",
        topic: "Harbour blend tastings this weekend",
      },
    })
  ).json();
  const day = addDays(zonedDayKey(new Date(), BRAND_ZONE), 2);
  const scheduled = await page.request.post(`/api/posts/${postId}/publications`, {
    headers,
    data: {
      channelId: (await connected.json()).channelId,
      publishAt: new Date(Date.now() + 2 * DAY_MS).toISOString(),
    },
  });
  expect(scheduled.status(), await scheduled.text()).toBe(202);
  const { publicationId } = await scheduled.json();
  const current = async () =>
    (await (await page.request.get(`/api/publications/${publicationId}`, { headers })).json()) as {
      status: string;
      publishAt: string;
    };
  const { publishAt } = await current();

  // Full-page shots at 1280 and 390 px; on a phone the panel is under the studio's Preview tab.
  const shootPanel = async (name: string) => {
    await page.screenshot({ path: `${SHOTS}/${name}-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByRole("tab", { name: "Preview" }).click();
    await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  await page.goto(`/studio/${postId}`);
  const row = page.getByTestId("publish-panel").getByTestId("publication-row").first();
  await expect(row.getByTestId("publication-status")).toHaveAttribute("data-status", "scheduled");
  await expect(page.getByTestId("post-status")).toHaveText("scheduled");

  // Change time: the form starts at the publication's time as the brand's clock shows it.
  await row.getByRole("button", { name: "Change time" }).click();
  const form = row.getByTestId("publication-time-form");
  const field = form.getByLabel(`New time (${BRAND_ZONE})`);
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(toZonedInputValue(new Date(publishAt), BRAND_ZONE));
  await expectAxeClean(page, "publish panel's Change time form", '[data-testid="publish-panel"]');
  await shootPanel("publish-panel-change-time");

  // A time the server refuses (in the past) is explained and changes nothing.
  await field.fill(`${addDays(zonedDayKey(new Date(), BRAND_ZONE), -1)}T09:00`);
  await form.getByRole("button", { name: "Save time" }).click();
  await expect(form.getByRole("alert")).toContainText("Pick a time in the future");
  expect((await current()).publishAt).toBe(publishAt);

  // 11:30 on that day in Auckland: saved, shown in the row, and what the API answers.
  await field.fill(`${day}T11:30`);
  await form.getByRole("button", { name: "Save time" }).click();
  await expect(form).toBeHidden();
  await expect(row.getByTestId("publication-time")).toHaveText(/, 11:30 \(Pacific\/Auckland\)$/);
  const moved = await current();
  expect(toZonedInputValue(new Date(moved.publishAt), BRAND_ZONE)).toBe(`${day}T11:30`);
  expect(moved.status).toBe("scheduled");

  // Cancel asks first; keeping it changes nothing, confirming cancels it and the actions go away.
  await row.getByRole("button", { name: "Cancel", exact: true }).click();
  const confirm = row.getByTestId("publication-cancel-confirm");
  await expect(confirm.getByRole("button", { name: "Keep it scheduled" })).toBeFocused();
  await expect(confirm).toContainText("will not be published on Harbour News (Telegram).");
  await expectAxeClean(page, "publish panel's cancel confirmation", '[data-testid="publish-panel"]');
  await shootPanel("publish-panel-cancel");
  await confirm.getByRole("button", { name: "Keep it scheduled" }).click();
  await expect(confirm).toBeHidden();
  expect((await current()).status).toBe("scheduled");
  await row.getByRole("button", { name: "Cancel", exact: true }).click();
  await confirm.getByRole("button", { name: "Cancel publication" }).click();
  await expect(row.getByTestId("publication-status")).toHaveAttribute("data-status", "canceled");
  await expect(row.getByRole("button")).toHaveCount(0);
  expect((await current()).status).toBe("canceled");
  // With nothing left scheduled, the post is a draft again, and the studio shows it without a reload.
  await expect(page.getByTestId("post-status")).toHaveText("draft");
  await shootPanel("publish-panel-canceled");
});
