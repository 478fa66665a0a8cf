import fs from "node:fs";
import path from "node:path";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
  children?: number[];
};
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

/** Which part of the stack a frame belongs to, from its script URL. */
function category(url: string, name: string) {
  if (name === "(idle)" || name === "(program)") return name;
  if (name === "(garbage collector)") return "garbage collector";
  // PGlite is the only WebAssembly in the process.
  if (/pglite/i.test(url) || url.startsWith("wasm://")) return "PGlite (WASM + JS)";
  if (/postgres\/|postgres\.js|\/postgres\//.test(url)) return "postgres.js";
  if (/drizzle-orm/.test(url)) return "drizzle-orm";
  if (/\.next-test\/server\/chunks\/.*node_modules_next/.test(url)) return "Next.js";
  if (/pg-boss/.test(url)) return "pg-boss";
  if (/next\/dist|next-server|\[turbopack\]|node_modules\/next/.test(url)) return "Next.js";
  if (/react-dom|react-server/.test(url)) return "React";
  if (/zod/.test(url)) return "zod";
  if (/jose|next-auth/.test(url)) return "auth libraries";
  if (/\.next-test\/server/.test(url)) return "app bundle (ours + bundled libraries)";
  if (url.startsWith("node:") || url === "") return "Node.js internals / native";
  return "other";
}

/** Self time per category over every profile in the folder, as a markdown table. */
export function summariseProfile(dir: string) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (files.length === 0) return "No profile was written (the server did not exit cleanly).";
  const totals = new Map<string, number>();
  const functions = new Map<string, number>();
  let all = 0;
  for (const file of files) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      if (!node) return;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const cat = category(node.callFrame.url, node.callFrame.functionName);
      if (cat === "(idle)") return;
      all += ms;
      totals.set(cat, (totals.get(cat) ?? 0) + ms);
      const fn = `${node.callFrame.functionName || "(anonymous)"} ${path.basename(node.callFrame.url)}`;
      functions.set(fn, (functions.get(fn) ?? 0) + ms);
    });
  }
  const share = (ms: number) => `${((100 * ms) / all).toFixed(1)}%`;
  const rows = [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([cat, ms]) => `| ${cat} | ${Math.round(ms)} | ${share(ms)} |`);
  const top = [...functions]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([fn, ms]) => `| \`${fn.replace(/\|/g, "\\|")}\` | ${Math.round(ms)} | ${share(ms)} |`);
  return `Busy CPU time, self time by where the code lives:

| part | ms | share |
|---|---|---|
${rows.join("\n")}

Top functions by self time:

| function | ms | share |
|---|---|---|
${top.join("\n")}`;
}
