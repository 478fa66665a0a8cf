import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startProcessHost } from "@/lib/ffmpeg/process-host";
import { ProcessFailedError, readProcess, runProcess } from "@/lib/ffmpeg/run-process";
import { isAlive, pidsOf, waitFor } from "./support/video-media";

/** The parent pid of a running process, from /proc. */
const parentOf = (pid: number) =>
  Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);

const sleepPids = (marker: string) => pidsOf("sleep", marker);

describe("tools run through the process host", () => {
  it("are started by the host, not by this process, and report their output line by line", async () => {
    const lines: string[] = [];
    await runProcess("sh", ["-c", 'echo "first"; echo "ppid=$PPID"; printf "last"'], {
      onStdoutLine: (line) => lines.push(line),
    });
    // The final line has no newline, as with ffmpeg's last progress block: it is not a line yet.
    expect(lines).toEqual(["first", `ppid=${startProcessHost().child.pid}`]);
    expect(startProcessHost().child.pid).not.toBe(process.pid);
    expect(parentOf(startProcessHost().child.pid as number)).toBe(process.pid);
  });

  it("fail with the tool's exit code and the last line of its stderr", async () => {
    const failed = await runProcess("sh", [
      "-c",
      "echo noise >&2; echo 'Invalid argument' >&2; exit 3",
    ]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProcessFailedError);
    expect(failed).toMatchObject({
      command: "sh",
      exitCode: 3,
      message: "sh exited with code 3: Invalid argument",
    });
  });

  it("fail with the system's error when the tool does not exist", async () => {
    const failed = await runProcess("/nonexistent/ffmpeg", ["-version"]).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: "ENOENT" });
  });

  it("read the text given for file descriptor 3 once it is ready, and run in the given folder", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-host-"));
    const lines: string[] = [];
    let ready!: (text: string) => void;
    const run = runProcess("sh", ["-c", "pwd; cat <&3"], {
      cwd: dir,
      onStdoutLine: (line) => lines.push(line),
      pipe3: new Promise((resolve) => {
        ready = resolve;
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    ready("scene one\nscene two\n");
    await run;
    expect(lines).toEqual([fs.realpathSync(dir), "scene one", "scene two"]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("are killed when the text for file descriptor 3 fails, and fail with its error", async () => {
    const marker = `${Math.floor(Math.random() * 1e6) + 300}`;
    const run = runProcess("sleep", [marker], {
      pipe3: new Promise((_, reject) => setTimeout(() => reject(new Error("no subtitles")), 100)),
    });
    await expect(run).rejects.toThrow("no subtitles");
    expect(sleepPids(marker)).toEqual([]);
  });

  it("are killed at once when their signal aborts", async () => {
    const marker = `${Math.floor(Math.random() * 1e6) + 300}`;
    const controller = new AbortController();
    const run = runProcess("sleep", [marker], { signal: controller.signal });
    const [pid] = await waitFor(() => sleepPids(marker).length > 0 && sleepPids(marker), { what: "sleep" });
    controller.abort(new Error("canceled"));
    await expect(run).rejects.toThrow("canceled");
    await waitFor(() => !isAlive(pid), { what: "the killed sleep to go" });
  });

  it("fail, not hang, when the host dies under them, and the next run starts a new host", async () => {
    const marker = `${Math.floor(Math.random() * 1e6) + 300}`;
    const first = startProcessHost();
    const run = runProcess("sleep", [marker]);
    await waitFor(() => sleepPids(marker).length > 0, { what: "sleep" });
    first.child.kill("SIGKILL");
    await expect(run).rejects.toThrow("The process host stopped while a tool was running.");
    const lines: string[] = [];
    await runProcess("sh", ["-c", "echo again"], { onStdoutLine: (line) => lines.push(line) });
    expect(lines).toEqual(["again"]);
    expect(startProcessHost().child.pid).not.toBe(first.child.pid);
    for (const pid of sleepPids(marker)) process.kill(pid, "SIGKILL");
  });

  it("give back what a tool printed and how it exited, and kill one that runs past its time", async () => {
    expect(
      await readProcess("sh", ["-c", "printf '31.400000'; echo 'Duration: 00:00:31.40' >&2; exit 1"]),
    ).toEqual({
      code: 1,
      stdout: "31.400000",
      stderr: "Duration: 00:00:31.40\n",
    });
    const marker = `${Math.floor(Math.random() * 1e6) + 300}`;
    expect(await readProcess("sleep", [marker], { timeoutMs: 200 })).toEqual({
      code: null,
      stdout: "",
      stderr: "",
    });
    expect(sleepPids(marker)).toEqual([]);
  });

  it("stop with the app: a process killed with SIGKILL leaves no tool running", async () => {
    const marker = `${Math.floor(Math.random() * 1e6) + 300}`;
    const app = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `import("./lib/ffmpeg/run-process.ts").then(({ runProcess }) => runProcess("sleep", ["${marker}"]));`,
      ],
      { stdio: "ignore" },
    );
    const [pid] = await waitFor(() => sleepPids(marker).length > 0 && sleepPids(marker), { what: "sleep" });
    expect(parentOf(pid)).not.toBe(app.pid);
    app.kill("SIGKILL");
    await waitFor(() => !isAlive(pid), { timeoutMs: 10_000, what: "the app's sleep to stop with it" });
  });
});
