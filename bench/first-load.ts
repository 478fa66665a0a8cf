import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";

export type PageSize = { route: string; files: number; gzipBytes: number };

type RscManifest = { entryJSFiles?: Record<string, string[]> };

/**
 * Every page's first-load JS, from what a Next 16 build writes: the root main files every page loads
 * (build-manifest.json) plus the entry chunks of the page's segments, its layouts and the page itself
 * (page_client-reference-manifest.js, one per app page).
 */
export function pageEntries(distDir: string) {
  const root = path.join(distDir, "server", "app");
  const buildManifest = JSON.parse(fs.readFileSync(path.join(distDir, "build-manifest.json"), "utf8")) as {
    rootMainFiles?: string[];
  };
  const shared = buildManifest.rootMainFiles ?? [];
  const found: { route: string; files: string[] }[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "page_client-reference-manifest.js") {
        // The file assigns globalThis.__RSC_MANIFEST[route]; run it in an empty context to read it.
        const context: { __RSC_MANIFEST?: Record<string, RscManifest> } = {};
        vm.runInNewContext(fs.readFileSync(full, "utf8"), context);
        const files = new Set(shared);
        for (const manifest of Object.values(context.__RSC_MANIFEST ?? {}))
          for (const list of Object.values(manifest.entryJSFiles ?? {}))
            for (const file of list) files.add(file);
        const segments = path.relative(root, path.dirname(full)).split(path.sep);
        const route = `/${segments.filter((s) => !/^\(.*\)$/.test(s)).join("/")}`;
        found.push({ route, files: [...files] });
      }
    }
  };
  walk(root);
  return found;
}

function measure(distDir: string): PageSize[] {
  return pageEntries(distDir).map(({ route, files }) => {
    let gzipBytes = 0;
    let count = 0;
    for (const file of files) {
      const full = path.join(distDir, file);
      if (fs.existsSync(full)) {
        gzipBytes += zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
        count++;
      }
    }
    return { route: route === "/" ? "/" : route.replace(/\/$/, ""), files: count, gzipBytes };
  });
}

/** First-load JS (gzip) of every page of the app, and of the baseline's one page. */
export function firstLoadJs(appDist: string, baselineDist: string) {
  const baseline = measure(baselineDist).find((p) => p.route === "/");
  const pages = measure(appDist)
    .filter((p) => !p.route.startsWith("/_"))
    .sort((a, b) => a.route.localeCompare(b.route));
  return { baseline, pages };
}
