import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCards } from "@/lib/docs/load-cards";
import { TEST_DIST_DIR } from "./support/test-server";

/**
 * Reads the production build the HTTP tests run (`NEXT_DIST_DIR=.next-test next build`): the docs pages are
 * prerendered, so a card's MDX is evaluated once at build time and never per request, and the JavaScript a
 * card page loads in the browser carries no database code.
 */
const dist = path.resolve(TEST_DIST_DIR);
const manifest = JSON.parse(fs.readFileSync(path.join(dist, "prerender-manifest.json"), "utf8")) as {
  routes: Record<string, unknown>;
};
const cards = loadCards().map((loaded) => loaded.card);

/** The script files a prerendered page's HTML loads, as files of the build. */
function clientScripts(route: string) {
  const html = fs.readFileSync(path.join(dist, "server", "app", `${route}.html`), "utf8");
  const sources = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]);
  return [...new Set(sources)]
    .filter((source) => source.startsWith("/_next/static/"))
    .map((source) => path.join(dist, "static", decodeURIComponent(source.slice("/_next/static/".length))));
}

describe("the docs pages in the production build", () => {
  it("prerenders the index and every card page (static: no MDX evaluated per request)", () => {
    expect(Object.keys(manifest.routes)).toContain("/api-docs");
    for (const card of cards) expect(Object.keys(manifest.routes), card.id).toContain(`/api-docs/${card.id}`);
  });

  it.each(["api-docs", `api-docs/${cards[0].id}`, "api-docs/update-brand"])(
    "%s loads no drizzle, table definitions or password_hash in its client JavaScript",
    (route) => {
      const scripts = clientScripts(route);
      expect(scripts.length).toBeGreaterThan(3);
      for (const file of scripts) {
        const text = fs.readFileSync(file, "utf8");
        expect(text, file).not.toMatch(/password_hash|drizzle|PgTable|pgTable/);
      }
    },
  );

  it("the scan would see database code if a client chunk had it (the check is real)", () => {
    const server = fs
      .readdirSync(path.join(dist, "server", "chunks"), { recursive: true })
      .map((name) => path.join(dist, "server", "chunks", String(name)))
      .filter((file) => file.endsWith(".js"))
      .some((file) => /password_hash/.test(fs.readFileSync(file, "utf8")));
    expect(server).toBe(true);
  });
});
