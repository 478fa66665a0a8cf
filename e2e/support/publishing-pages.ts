import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const SHOTS = "screenshots";

/** Signs a new marketer up through the pages; the session's token as request headers. */
export async function signUpMarketer(page: Page, label: string, name: string) {
  const email = `e2e-${label}-${Date.now()}@example.test`;
  await page.goto("/signup");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("e2e-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  const session = await (await page.request.get("/api/auth/session")).json();
  return { authorization: `Bearer ${session.accessToken}` };
}

/** No serious or critical axe violation on the page (or inside `include`). */
export async function expectAxeClean(page: Page, what: string, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map(
      (v) => `${v.id}: ${v.help} ${v.nodes.map((n) => `${n.target} ${n.failureSummary}`).join("; ")}`,
    ),
    what,
  ).toEqual([]);
}

/** Full-page screenshots at 1280 and 390 px wide, into screenshots/. */
export async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
