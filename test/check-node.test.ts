import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import pkg from "../package.json";

const SCRIPT = path.resolve(__dirname, "..", "scripts", "check-node.mjs");

/** Runs the predev check in a real Node child whose `process.versions.node` reads `version`. */
function checkUnder(version: string) {
  const fake = `Object.defineProperty(process,"versions",{value:{...process.versions,node:${JSON.stringify(version)}}})`;
  const result = spawnSync(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(fake)}`, SCRIPT],
    { encoding: "utf8" },
  );
  return { status: result.status, stderr: result.stderr };
}

describe("npm run dev on an older Node (scripts/check-node.mjs, the predev script)", () => {
  it("is what npm runs before dev, and reads the range from engines", () => {
    expect(pkg.scripts.predev).toBe("node scripts/check-node.mjs");
    expect(pkg.engines.node).toBe(">=22.12");
  });

  it.each(["20.20.2", "22.11.0", "18.0.0"])("stops on Node %s with one line that names 22.12", (version) => {
    const { status, stderr } = checkUnder(version);
    expect(status).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(`needs Node 22.12 or newer`);
    expect(stderr).toContain(`this is Node ${version}`);
  });

  it.each(["22.12.0", "22.13.1", "24.1.0"])("lets Node %s through, silently", (version) => {
    expect(checkUnder(version)).toEqual({ status: 0, stderr: "" });
  });
});
