import { expect, type Page } from "@playwright/test";

export type Marketer = {
  email: string;
  headers: { authorization: string };
  brandId: string;
  postId: string;
  jobId: string;
};

/**
 * Signs a new marketer up through the pages, then (over the API, with the session's token) gives them a
 * brand, a post and a video job, so every page has something real to show.
 */
export async function newMarketer(page: Page, label: string): Promise<Marketer> {
  const email = `e2e-${label}-${Date.now()}@example.test`;
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Walking Marketer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("e2e-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  const session = await (await page.request.get("/api/auth/session")).json();
  const headers = { authorization: `Bearer ${session.accessToken}` };

  const brand = await page.request.post("/api/brands", {
    headers,
    data: {
      name: "Harbour Bakery",
      tone: "warm and neighbourly",
      voice: "short sentences, the smell of the oven, no jargon",
      doList: ["name the bread"],
      defaultHashtags: ["#HarbourBakery"],
    },
  });
  expect(brand.status()).toBe(201);
  const { brandId } = await brand.json();

  const post = await page.request.post("/api/content/create", {
    headers,
    data: {
      brandId,
      channel: "instagram",
      topic: "our sourdough starter turns ten this week",
      goal: "awareness",
    },
  });
  expect(post.status()).toBe(201);
  const { postId } = await post.json();

  const job = await page.request.post("/api/video/jobs", {
    headers,
    data: {
      brandId,
      mode: "regular",
      script: "Our sourdough starter turns ten this week. Come and taste it.",
    },
  });
  expect(job.status()).toBe(202);
  const { jobId } = await job.json();
  return { email, headers, brandId, postId, jobId };
}

/** The signed-in pages, with real ids. */
export const appPages = (m: Marketer) => [
  "/",
  "/brands",
  "/brands/new",
  `/brands/${m.brandId}`,
  "/studio",
  `/studio/${m.postId}`,
  "/videos",
  "/videos/new",
  `/videos/new?postId=${m.postId}`,
  `/videos/${m.jobId}`,
  "/settings",
  "/api-docs",
  "/api-docs/generate-post",
];

/** The app's own pages (the API docs pages are the docs' own, checked separately). */
export const studioPages = (m: Marketer) => appPages(m).filter((path) => !path.startsWith("/api-docs"));

/**
 * Fails the test on any uncaught page error or console error, reported at the end with where it happened.
 * Chrome logs a page's own 404 status as a console error ("Failed to load resource"); `expected404s` names
 * the paths whose document is meant to answer 404 (a 404 of anything else they load still counts).
 */
export function watchForErrors(page: Page, { expected404s = [] }: { expected404s?: string[] } = {}) {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`${page.url()}: page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const source = message.location().url;
    const expected =
      /status of 404/.test(message.text()) && !!source && expected404s.includes(new URL(source).pathname);
    if (!expected) problems.push(`${page.url()}: console error: ${message.text()}`);
  });
  return problems;
}
