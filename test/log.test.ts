import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";

/**
 * lib/log.ts: info lines are written after the current task, pending ones in one stdout write, and never
 * lost when the process exits first; warnings and errors stay immediate.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

describe("log lines", () => {
  it("write info lines after the current task, together, as JSON with secrets redacted", async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    log.info("first_event", { postId: "pst_1", authorization: "Bearer secret" });
    log.info("second_event", { n: 2 });
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const lines = writes[0].split("\n");
    expect(lines.at(-1)).toBe("");
    const [first, second] = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(first).toMatchObject({ level: "info", event: "first_event", postId: "pst_1" });
    expect(first.authorization).toBe("[redacted]");
    expect(second).toMatchObject({ level: "info", event: "second_event", n: 2 });
  });

  it("write warnings at once, through console", () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    log.warn("something_odd", { n: 1 });
    expect(warned).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(warned.mock.calls[0][0]))).toMatchObject({
      level: "warn",
      event: "something_odd",
    });
  });

  it("still write pending info lines when the process exits before they were due", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-log-"));
    const script = path.join(dir, "exit-early.mts");
    fs.writeFileSync(
      script,
      `import { log } from ${JSON.stringify(path.resolve("lib/log.ts"))};
log.info("before_exit", { n: 1 });
log.info("also_before_exit", { n: 2 });
process.exit(3);
`,
    );
    const run = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", script], {
      cwd: path.resolve("."),
      encoding: "utf8",
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.status, run.stderr).toBe(3);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).event);
    expect(events).toEqual(["before_exit", "also_before_exit"]);
  });
});
