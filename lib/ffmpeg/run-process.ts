import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

export class ProcessFailedError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    const lastLine = stderr.trim().split("\n").pop() ?? "";
    super(`${command} exited with code ${exitCode}${lastLine ? `: ${lastLine}` : ""}`);
    this.name = "ProcessFailedError";
  }
}

/**
 * Runs a tool to completion. `onStdoutLine` sees its output line by line (ffmpeg's `-progress pipe:1`).
 * `pipe3` is text the tool reads from file descriptor 3 (ffmpeg: `pipe:3`), written once it is ready, so
 * the tool can start before it is: if it fails instead, the process is killed and the promise rejects
 * with its error. When `signal` aborts, the process is killed at once and the promise rejects with the
 * signal's reason, so a canceled render stops using the CPU immediately.
 */
export function runProcess(
  command: string,
  args: string[],
  options: {
    signal?: AbortSignal;
    onStdoutLine?: (line: string) => void;
    pipe3?: Promise<string>;
    cwd?: string;
  } = {},
): Promise<void> {
  const { signal, onStdoutLine, pipe3, cwd } = options;
  // Its failure is reported through the promise below (or not at all, when the tool never starts).
  pipe3?.catch(() => {});
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    // stdout stays a pipe even when nobody reads progress: if this process dies, the tool's next write
    // fails with SIGPIPE and it stops instead of rendering on as an orphan.
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe", pipe3 ? "pipe" : "ignore"],
    }) as ChildProcessByStdio<null, Readable, Readable>;
    let failure: { error: unknown } | undefined;
    if (pipe3) {
      const input = child.stdio[3] as Writable;
      // If the tool exits without reading it all, that is its exit's business, not a write error's.
      input.on("error", () => {});
      pipe3.then(
        (text) => input.end(text),
        (error: unknown) => {
          failure = { error };
          child.kill("SIGKILL");
        },
      );
    }
    let stderr = "";
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      if (onStdoutLine) for (const line of lines) onStdoutLine(line.trim());
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const abort = () => child.kill("SIGKILL");
    signal?.addEventListener("abort", abort, { once: true });
    child.on("error", (error) => {
      signal?.removeEventListener("abort", abort);
      reject(error);
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", abort);
      if (signal?.aborted) reject(signal.reason);
      else if (failure) reject(failure.error);
      else if (code === 0) resolve();
      else reject(new ProcessFailedError(command.split("/").pop() ?? command, code, stderr));
    });
  });
}
