import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

export type PageSize = { route: string; files: number; gzipBytes: number };

function gzipSize(file: string) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** Every page's entry JS, from the client reference manifests a Next 16 build writes per app route. */
function pageEntries(distDir: string) {
  const root = path.join(distDir, "server", "app");
  const found: { route: string; files: string[] }[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "page_client-reference-manifest.js") {
        const route = `/${path.relative(root, path.dirname(full)).split(path.sep).join("/")}`;
        const text = fs.readFileSync(full, "utf8");
        const json = JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, "")) as {
          entryJSFiles?: Record<string, string[]>;
        };
        const files = new Set<string>();
        // The entries of this page's segments: its layouts and the page itself.
        for (const list of Object.values(json.entryJSFiles ?? {})) for (const f of list) files.add(f);
        found.push({ route: route.replace(/\/page$/, "") || "/", files: [...files] });
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
      const full = path.join(distDir, file.replace(/^static\//, "static/"));
      if (fs.existsSync(full)) {
        gzipBytes += gzipSize(full);
        count++;
      }
    }
    return { route, files: count, gzipBytes };
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
