import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { libFolderEdges } from "@/scripts/lib-graph";

// The layering rules of the brief, checked on the source: app → components → lib → db, db imports nothing
// from lib, lib/config is the only reader of process.env, and no module imports itself through others.
const ROOT = path.resolve(__dirname, "..");
const SOURCE_DIRS = ["app", "components", "lib", "db", "worker", "scripts", "bench"];

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
    return entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name) && !file.includes("migrations") ? [file] : [];
  });
}

const files = [...SOURCE_DIRS.flatMap(sourceFiles), "instrumentation.ts", "next.config.mjs", "proxy.ts"];
const text = new Map(files.map((file) => [file, fs.readFileSync(path.join(ROOT, file), "utf8")]));

/** The repository files a module imports at run time, statically or with import() (`import type` is erased). */
function importsOf(file: string): string[] {
  const code = (text.get(file) ?? "").replace(/^import type [^;]+;/gm, "");
  const specifiers = [...code.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)["']([^"']+)["']/gm)].map(
    (m) => m[1],
  );
  return specifiers.flatMap((specifier) => {
    const base = specifier.startsWith("@/")
      ? path.join(ROOT, specifier.slice(2))
      : specifier.startsWith(".")
        ? path.resolve(ROOT, path.dirname(file), specifier)
        : null;
    if (!base) return [];
    const candidates = ["", ".ts", ".tsx", ".mjs", "/index.ts", "/index.tsx"].map((ext) =>
      path.relative(ROOT, base + ext),
    );
    const found = candidates.find((candidate) => text.has(candidate));
    return found ? [found] : [];
  });
}

describe("the layering", () => {
  it("db/ imports nothing from lib/ (or any layer above it)", () => {
    const offending = files
      .filter((file) => file.startsWith("db/"))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => !target.startsWith("db/"))
          .map((t) => `${file} → ${t}`),
      );
    expect(offending).toEqual([]);
  });

  it("lib/ imports nothing from app/, components/ or worker/", () => {
    const offending = files
      .filter((file) => file.startsWith("lib/"))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => /^(app|components|worker)\//.test(target))
          .map((target) => `${file} → ${target}`),
      );
    expect(offending).toEqual([]);
  });

  it("only lib/config.ts reads process.env (Next's NEXT_RUNTIME and NEXT_DIST_DIR, the system PATH, the allocator's settings and the test runner aside)", () => {
    const allowed: Record<string, RegExp> = {
      "instrumentation.ts": /process\.env\.NEXT_RUNTIME/g,
      "next.config.mjs": /process\.env\.NEXT_DIST_DIR/g,
      "lib/ffmpeg/find-binary.ts": /process\.env\.PATH/g,
      // Settings of the C library's allocator (scripts/allocator.mjs), read before the server starts, not of the app.
      "scripts/start.mjs": /allocatorEnv\(process\.env\)/g,
      "bench/servers.ts": /allocatorEnv\(process\.env\)/g,
    };
    const offending = files.filter((file) => {
      if (file === "lib/config.ts" || file === "scripts/test.mjs") return false;
      const source = (text.get(file) ?? "").replace(allowed[file] ?? /$^/g, "");
      // Passing the whole environment on to a child process (`...process.env`) reads no setting.
      return /process\.env(?!\s*[,}])/.test(source.replace(/\.\.\.process\.env/g, ""));
    });
    expect(offending).toEqual([]);
  });

  it("has no import cycles", () => {
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        cycles.push([...stack.slice(stack.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "visiting");
      stack.push(file);
      for (const target of graph.get(file) ?? []) visit(target);
      stack.pop();
      state.set(file, "done");
    };
    for (const file of files) visit(file);
    expect(cycles).toEqual([]);
  });
});

/**
 * The folders of lib/, bottom first (lib/config.ts, ids.ts and log.ts count as folders). A folder imports
 * only folders of its own layer or below: the shared words (errors, text, ffmpeg, contracts, telemetry) are
 * leaves, and a domain never reaches up into one built on it. A new folder goes into the lowest layer above
 * everything it imports.
 */
const LAYERS = [
  ["config", "ids", "text"],
  ["errors", "ffmpeg"],
  ["contracts", "telemetry"],
  ["log", "activity", "ai", "insights", "openapi", "query"],
  ["auth", "docs", "queue"],
  ["api", "client", "media", "security"],
  ["brands", "webhooks"],
  ["posts", "video"],
  ["avatars", "health", "publishing"],
  ["analytics", "server", "teams", "users"],
];

describe("the lib/ folders", () => {
  const edges = libFolderEdges(ROOT);
  const layerOf = new Map(
    LAYERS.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)),
  );

  it("are each in a layer", () => {
    const folders = new Set([...edges.keys(), ...[...edges.values()].flatMap((row) => [...row.keys()])]);
    expect([...folders].filter((folder) => !layerOf.has(folder))).toEqual([]);
  });

  it("import no folder of a higher layer (type imports included)", () => {
    const upward = [...edges].flatMap(([from, row]) =>
      [...row]
        .filter(([to]) => (layerOf.get(to) ?? 0) > (layerOf.get(from) ?? 0))
        .map(([to, lines]) => `${from} → ${to}: ${lines.join("; ")}`),
    );
    expect(upward).toEqual([]);
  });

  it("import no folder that imports them back, directly or through others", () => {
    const cycles: string[] = [];
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      for (const next of edges.get(from)?.keys() ?? []) {
        if (next === to) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        if (reaches(next, to, seen)) return true;
      }
      return false;
    };
    for (const [from, row] of edges)
      for (const to of row.keys()) if (reaches(to, from)) cycles.push(`${from} → ${to}`);
    expect(cycles).toEqual([]);
  });
});

describe("the routes", () => {
  const routes = files.filter((file) => /^app\/.*\/route\.tsx?$/.test(file));

  it("are at most 25 lines: a route declares its operation and calls its service", () => {
    const long = routes.filter((file) => (text.get(file) ?? "").trimEnd().split("\n").length > 25);
    expect(long).toEqual([]);
  });
});

describe("the browser's code", () => {
  it('reaches no server module (`server-only`) from a "use client" module', () => {
    const isClient = (file: string) => /^\s*["']use client["']/.test(text.get(file) ?? "");
    const isServer = (file: string) => /^import\s+["']server-only["']/m.test(text.get(file) ?? "");
    const offending: string[] = [];
    for (const entry of files.filter(isClient)) {
      const seen = new Set([entry]);
      const stack = [[entry]];
      while (stack.length) {
        const chain = stack.pop() ?? [];
        for (const next of importsOf(chain[chain.length - 1])) {
          if (seen.has(next)) continue;
          seen.add(next);
          if (isServer(next)) offending.push([...chain, next].join(" → "));
          else stack.push([...chain, next]);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});
