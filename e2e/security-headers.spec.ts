import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { appPages, newMarketer, watchForErrors } from "./support/marketer";

/** Collects every CSP violation the page reports (the event fires on the document for each blocked load). */
async function watchForViolations(page: Page) {
  const violations: string[] = [];
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation(
        `${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`,
      );
    });
  });
  return violations;
}

test("every page loads under the Content-Security-Policy with no violation and no console error", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const violations = await watchForViolations(page);
  // An unknown address gets the site's 404 page, under the nonce policy too.
  const problems = watchForErrors(page, { expected404s: ["/nope"] });
  const marketer = await newMarketer(page, "csp");
  for (const path of ["/login", "/signup", "/nope", ...appPages(marketer)]) {
    const response = await page.goto(path);
    const csp = response?.headers()["content-security-policy"] ?? "";
    // The API docs are prerendered at build time (no per-request HTML for a nonce): 'unsafe-inline' there.
    expect(csp, path).toMatch(
      path.startsWith("/api-docs")
        ? /script-src 'self' 'unsafe-inline';/
        : /script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic';/,
    );
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).not.toContain("unsafe-eval");
    expect(response?.headers()["x-content-type-options"], path).toBe("nosniff");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  }
  // The video player plays a /media URL under media-src.
  await page.goto(`/videos/${marketer.jobId}`);
  await expect(page.locator("video")).toBeVisible({ timeout: 120_000 });
  expect(violations).toEqual([]);
  expect(problems).toEqual([]);
});

test("a page framed by another origin is refused", async ({ page, baseURL }) => {
  const target = `${baseURL}/api-docs/generate-post`;
  const framer = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<!doctype html><title>framer</title><iframe id="victim" src="${target}"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = framer.address() as AddressInfo;
    const refused = new Promise<string>((resolve) =>
      page.on("console", (message) => {
        if (/frame-ancestors|Refused to (display|frame)/i.test(message.text())) resolve(message.text());
      }),
    );
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await refused).toMatch(/frame-ancestors 'none'/);
    // Nothing of the page rendered inside the frame (Chrome shows its own error page there instead).
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    const text =
      (await frame
        ?.locator("body")
        .innerText()
        .catch(() => "")) ?? "";
    expect(text).not.toContain("Generate post");
  } finally {
    framer.close();
  }
});
