#!/usr/bin/env node
// `npm run dev` runs this first (predev): on a Node older than package.json's `engines` (">=22.12"), it stops
// with one line that says what to install, instead of Next's later, unrelated-looking errors. No imports
// beyond Node's own, so it runs on any old Node.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The problem with running `version` (e.g. "20.20.2") under `range` (">=22.12"), or null when it fits. */
export function nodeVersionProblem(version, range) {
  const wanted = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!wanted) return null;
  const need = wanted.slice(1).map((part) => Number(part ?? 0));
  const have = version.split(".").map(Number);
  for (let index = 0; index < 3; index++) {
    if ((have[index] ?? 0) > need[index]) return null;
    if ((have[index] ?? 0) < need[index])
      return `Brand Studio needs Node ${range.replace(/^>=\s*/, "")} or newer (package.json "engines"); this is Node ${version}. Install Node 22 (e.g. \`nvm install 22\`) and run it again.`;
  }
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { engines } = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const problem = nodeVersionProblem(process.versions.node, engines?.node ?? "");
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
