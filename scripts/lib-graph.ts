// Prints the import graph between lib/ folders (type imports included) and the folder pairs that import each
// other. The same reading backs test/structure.test.ts. Usage: npx tsx scripts/lib-graph.ts [--edges]
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

export function libFolderOf(file: string): string | null {
  const m = /^lib\/([^/]+)\//.exec(file);
  return m ? m[1] : /^lib\/[^/]+\.tsx?$/.test(file) ? path.basename(file).replace(/\.tsx?$/, "") : null;
}

export function libFolderEdges(root = ROOT): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  const files = fs
    .readdirSync(path.join(root, "lib"), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  for (const file of files) {
    const from = libFolderOf(file);
    if (!from) continue;
    const code = fs.readFileSync(path.join(root, file), "utf8");
    for (const m of code.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)["']([^"']+)["']/gm)) {
      const spec = m[1];
      const target = spec.startsWith("@/")
        ? spec.slice(2)
        : spec.startsWith(".")
          ? path.relative(root, path.resolve(root, path.dirname(file), spec))
          : null;
      if (!target?.startsWith("lib/")) continue;
      const to = libFolderOf(target.includes("/", 4) ? target : `${target}.ts`);
      if (!to || to === from) continue;
      const row = edges.get(from) ?? new Map<string, string[]>();
      edges.set(from, row);
      row.set(to, [...(row.get(to) ?? []), `${file} → ${spec}`]);
    }
  }
  return edges;
}

export function twoWayPairs(edges: Map<string, Map<string, string[]>>): string[] {
  const pairs: string[] = [];
  for (const [a, row] of edges)
    for (const b of row.keys()) if (a < b && edges.get(b)?.has(a)) pairs.push(`${a} ⇄ ${b}`);
  return pairs.sort();
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const edges = libFolderEdges();
  const showEdges = process.argv.includes("--edges");
  for (const [from, row] of [...edges].sort()) console.log(`${from} → ${[...row.keys()].sort().join(", ")}`);
  console.log("\ntwo-way pairs:");
  for (const pair of twoWayPairs(edges)) {
    console.log(`  ${pair}`);
    if (showEdges) {
      const [a, b] = pair.split(" ⇄ ");
      for (const line of [...(edges.get(a)?.get(b) ?? []), ...(edges.get(b)?.get(a) ?? [])])
        console.log(`    ${line}`);
    }
  }
}
