import { expect, type Page, test } from "@playwright/test";
import { formatInZone, formatTimeInZone, zonedDayKey } from "@/lib/contracts/time-zone";
import { expectAxeClean, signUpMarketer } from "./support/publishing-pages";

const BRAND_ZONE = "Europe/Berlin";
const SHOTS = "/tmp/shots-schedule";
const DAY_MS = 86_400_000;

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const addDays = (key: string, days: number) =>
  new Date(Date.parse(`${key}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const monthIndex = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7));

/** The calendar's month view of the brand's day `key`, stepping from this month. */
async function showMonthOf(page: Page, key: string) {
  await page.goto("/calendar");
  await expect(page.getByTestId("calendar-zone")).toContainText(`Times in ${BRAND_ZONE}`);
  const steps = monthIndex(key) - monthIndex(zonedDayKey(new Date(), BRAND_ZONE));
  for (let step = 0; step < steps; step++) await page.getByRole("button", { name: "Next" }).click();
  return page.locator(`[data-testid="calendar-day"][data-day="${key}"]`);
}

test("an owner sets a posting schedule, adds two posts to the queue and sees them in the calendar's slots", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const headers = await signUpMarketer(page, "queue", "Queue Marketer");
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Queue Roasters", tone: "warm", voice: "short sentences", timeZone: BRAND_ZONE },
  });
  const { brandId } = await brand.json();
  const telegramUrl = process.env.E2E_TELEGRAM_URL as string;
  const username = `queue_news_${Date.now() % 100000}`;
  const fake = await (
    await page.request.post(`${telegramUrl}/__fake/channels`, { data: { title: "Queue News", username } })
  ).json();
  const connected = await page.request.post("/api/channels", {
    headers,
    data: { brandId, channel: "telegram", botToken: fake.botToken, chatId: `@${username}` },
  });
  expect(connected.status(), await connected.text()).toBe(201);
  const { channelId } = await connected.json();
  const postIds: string[] = [];
  for (const topic of ["Our autumn blend arrives next week", "Meet the roasters behind our espresso"]) {
    const created = await page.request.post("/api/content/create", {
      headers,
      data: { brandId, channel: "telegram", goal: "announcement", topic },
    });
    postIds.push((await created.json()).postId);
  }

  // Channel settings: no slots yet; Suggest from best times fills the platform's usual times, labelled so.
  await page.goto(`/brands/${brandId}`);
  await page.getByText("Posting schedule").click();
  const editor = page.getByTestId("channel-schedule");
  await expect(editor.getByText("No time slots yet")).toBeVisible();
  await expect(editor.getByTestId("best-times-source")).toContainText("The platform's usual best times");
  await editor.getByRole("button", { name: "Suggest from best times" }).click();
  await expect(editor.getByRole("list", { name: /Posting schedule of/ }).getByRole("listitem")).toHaveCount(
    5,
  );
  for (let index = 5; index >= 1; index--)
    await editor.getByRole("button", { name: `Remove slot ${index}` }).click();

  // A slot every day at 10:00, typed in the brand's zone.
  for (let day = 1; day <= 7; day++) {
    await editor.getByRole("button", { name: "Add slot" }).click();
    await editor.getByLabel(`Slot ${day} weekday`).selectOption(String(day));
    await editor.getByLabel(`Slot ${day} time`).fill("10:00");
  }
  await editor.getByRole("button", { name: "Save schedule" }).click();
  await expect(editor.getByRole("status")).toHaveText("Schedule saved.");
  await expect(editor.getByTestId("schedule-next-slot")).toContainText("10:00 (Europe/Berlin)");
  const saved = await (await page.request.get(`/api/channels/${channelId}/schedule`, { headers })).json();
  expect(saved.slots).toHaveLength(7);
  expect(formatTimeInZone(saved.nextSlot, BRAND_ZONE)).toBe("10:00");
  await expectAxeClean(page, "channel settings with a posting schedule");
  await shoot(page, "schedule-editor");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .getByTestId("channels-panel")
      .screenshot({ path: `${SHOTS}/schedule-channels-panel-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The publish panel: Add to queue names the next free slot; the next best time is offered beside it.
  const queued: { publicationId: string; publishAt: string }[] = [];
  for (const postId of postIds) {
    await page.goto(`/studio/${postId}`);
    const publish = page.getByTestId("publish-panel");
    await publish.getByLabel("Next best time").check();
    await expect(publish.getByTestId("publish-best-hint")).toContainText("The platform's usual best times");
    await publish.getByLabel("Add to queue").check();
    const next = (await (await page.request.get(`/api/channels/${channelId}/schedule`, { headers })).json())
      .nextSlot as string;
    await expect(publish.getByTestId("publish-queue-hint")).toHaveText(
      `Next free slot: ${formatInZone(next, BRAND_ZONE)}.`,
    );
    if (queued.length === 0) {
      await expectAxeClean(page, "publish panel with Add to queue");
      await shoot(page, "schedule-publish-panel");
      // A phone shows the publish panel under its own tab.
      await page.setViewportSize({ width: 390, height: 900 });
      await page.getByRole("tab", { name: "Preview & publish" }).click();
      await publish.screenshot({ path: `${SHOTS}/schedule-publish-panel-tab-390.png` });
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await publish.getByRole("button", { name: "Add to queue for Queue News" }).click();
    await expect(publish.getByTestId("publish-scheduled-at")).toHaveText(
      `Added to the queue for ${formatInZone(next, BRAND_ZONE)}.`,
    );
    const [publication] = (
      await (
        await page.request.get(
          `/api/publications?brandId=${brandId}&postId=${postId}&from=${new Date(Date.now() - DAY_MS).toISOString()}&to=${new Date(Date.now() + 30 * DAY_MS).toISOString()}`,
          { headers },
        )
      ).json()
    ).items;
    expect(publication.publishAt).toBe(new Date(next).toISOString());
    queued.push(publication);
  }
  expect(queued[0].publishAt).not.toBe(queued[1].publishAt);
  expect(Date.parse(queued[1].publishAt)).toBeGreaterThan(Date.parse(queued[0].publishAt));

  // The calendar: each post in its slot's day at 10:00; the slots after them are shown empty.
  for (const publication of queued) {
    const day = zonedDayKey(new Date(publication.publishAt), BRAND_ZONE);
    const cell = await showMonthOf(page, day);
    await expect(cell.locator(`[data-publication-id="${publication.publicationId}"]`)).toContainText(
      "10:00 · scheduled",
    );
    await expect(cell.getByTestId("calendar-free-slot")).toHaveCount(0);
  }
  const after = addDays(zonedDayKey(new Date(queued[1].publishAt), BRAND_ZONE), 1);
  const freeCell = await showMonthOf(page, after);
  await expect(freeCell.getByTestId("calendar-free-slot")).toHaveText("10:00 free · Queue News");
  await expect(page.getByTestId("calendar-free-legend")).toBeVisible();
  await showMonthOf(page, zonedDayKey(new Date(queued[0].publishAt), BRAND_ZONE));
  await expectAxeClean(page, "calendar with queued posts and free slots");
  await shoot(page, "schedule-calendar");
});
