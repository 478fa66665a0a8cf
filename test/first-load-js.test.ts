import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pageEntries } from "../bench/first-load";
import { TEST_DIST_DIR } from "./support/test-server";

// What every page's first load carries, read from the build the tests run (the bench measures its size).
// zod, the contracts' schemas and the server's modules load only where a page needs them (lazily), or
// never: a root import of zod once added 31 kB gzip to every page unnoticed.
const pages = pageEntries(TEST_DIST_DIR).filter((page) => !page.route.startsWith("/_"));
const firstLoad = (files: string[]) =>
  files.map((file) => fs.readFileSync(path.join(TEST_DIST_DIR, file), "utf8")).join("\n");

describe("first-load JS", () => {
  it("finds the app's pages in the build", () => {
    expect(pages.map((page) => page.route)).toEqual(
      expect.arrayContaining(["/", "/studio", "/calendar", "/brands/[brandId]", "/api-docs/[id]"]),
    );
  });

  it.each(pages.map((page) => [page.route, page.files] as const))(
    "%s loads no zod and no server code",
    (_route, files) => {
      const code = firstLoad(files);
      expect(code).not.toMatch(/ZodError|_zod\b/);
      expect(code).not.toMatch(/password_hash|PgTable|drizzle-orm/);
    },
  );
});
