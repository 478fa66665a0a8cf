import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { createTestDatabase, startTestServer, type TestServer } from "../test/support/test-server";
import { expectAxeClean, signUpMarketer } from "./support/publishing-pages";

// Results older than two days cannot come from the fakes in a test's time, so this spec runs a server of its
// own on a PostgreSQL database of its own and writes a brand's published LinkedIn posts and their results
// there, as the results collector stores them.
const PG = process.env.E2E_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SHOTS = "/tmp/shots-learning";
let server: TestServer;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await createTestDatabase(PG, { fresh: true });
  server = await startTestServer({ env: { DATABASE_URL: database.url } });
  fs.mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url")}`;

/** 12 published LinkedIn posts of the brand, 3 to 10 days old, with reach and interactions. */
async function seedResults(brandId: string) {
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const ids: string[] = [];
  try {
    for (let i = 0; i < 12; i++) {
      const postId = id("pst");
      const publicationId = id("pub");
      ids.push(postId);
      const winner = i < 3;
      const caption = winner
        ? `Which roast wakes your team up, number ${i + 1}?\n\nWe tried them all this week.`
        : `Roastery update ${i + 1}. We keep working on every batch with care and patience.`;
      const publishedAt = new Date(Date.now() - (72 + i * 12) * 3_600_000);
      await sql`INSERT INTO posts (id, group_id, brand_id, channel, goal, topic, caption, media_plan, hashtags,
          status, seed, provider, model, latency_ms)
        VALUES (${postId}, ${postId}, ${brandId}, 'linkedin', 'awareness', 'Roastery news', ${caption},
          ${sql.json({ format: "text_only", items: [] })}, ${sql.json(winner ? ["#Coffee", "#Team"] : ["#A", "#B", "#C", "#D", "#E"])},
          'published', 1, 'local', 'test', 1)`;
      await sql`INSERT INTO publications (id, brand_id, post_id, channel, status, publish_at, published_at, external_id)
        VALUES (${publicationId}, ${brandId}, ${postId}, 'linkedin', 'published', ${publishedAt}, ${publishedAt}, ${`urn:li:share:${i}`})`;
      for (const [metric, value] of [
        ["reach", 1000],
        ["interactions", winner ? 80 - i * 5 : 10 + i],
      ] as const) {
        await sql`INSERT INTO publication_metrics (publication_id, metric, value, captured_at)
          VALUES (${publicationId}, ${metric}, ${value}, now())`;
        await sql`INSERT INTO publication_metric_latest (publication_id, brand_id, metric, value, captured_at)
          VALUES (${publicationId}, ${brandId}, ${metric}, ${value}, now())`;
      }
    }
  } finally {
    await sql.end();
  }
  return ids;
}

test("a brand with results gets a draft written with its 3 best LinkedIn posts, links to them, and can turn it off", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  const headers = await signUpMarketer(page, "learning", "Learning Marketer");
  const brand = await page.request.post("/api/brands", {
    headers,
    data: { name: "Results Roasters", tone: "warm", voice: "short sentences", timeZone: "Europe/Berlin" },
  });
  expect(brand.status()).toBe(201);
  const { brandId } = await brand.json();
  const ids = await seedResults(brandId);

  await page.goto("/studio");
  await expect(page.getByRole("combobox", { name: /^Brand/ })).toContainText("Results Roasters");
  await page.getByLabel("Topic").fill("our new Ethiopian single-origin espresso, roasted in small batches");
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(page).toHaveURL(/\/studio\/pst_/);

  const note = page.getByRole("region", { name: "Learning from results" });
  await expect(note.getByText("Written with your 3 best LinkedIn posts as examples")).toBeVisible();
  const links = note.getByRole("link");
  await expect(links).toHaveCount(3);
  for (const [index, postId] of ids.slice(0, 3).entries()) {
    await expect(links.nth(index)).toHaveAttribute("href", `/studio/${postId}`);
    await expect(links.nth(index)).toContainText(`Which roast wakes your team up, number ${index + 1}?`);
  }
  await expect(note).toContainText("8.0% engagement · 80 of 1,000 reached");
  // The local model followed them: a question first, their 2 hashtags.
  const caption = await page.getByLabel("Caption", { exact: true }).inputValue();
  expect(caption.split("\n")[0]).toMatch(/\?$/);
  await expect(page.getByRole("list", { name: "Hashtags" }).getByRole("listitem")).toHaveCount(2);
  await expectAxeClean(page, "studio with the learned-from note");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await note.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/learning-note-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Off for the next draft.
  await note.getByLabel("Learn from my best posts in the next draft").uncheck();
  const firstUrl = page.url();
  await page.getByRole("button", { name: "Regenerate", exact: true }).click();
  await expect(page).not.toHaveURL(firstUrl);
  await expect(note.getByText("Written without your best posts as examples.")).toBeVisible();
  await expect(note.getByRole("link")).toHaveCount(0);

  // The example link opens the post it learned from.
  await page.goto(firstUrl);
  await note.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/studio/${ids[0]}$`));
  await context.close();
});
