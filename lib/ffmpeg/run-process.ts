import { hostedRun } from "./process-host";

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
    let failure: { error: unknown } | undefined;
    let pending = "";
    const abort = () => run.kill();
    const done = () => signal?.removeEventListener("abort", abort);
    // Started by the process host (lib/ffmpeg/process-host.ts), which keeps stdout a pipe even when nobody
    // reads progress, and kills the tool when this process dies, so it never renders on as an orphan.
    const run = hostedRun(
      { command, args, cwd, input: Boolean(pipe3) },
      {
        onStdout: onStdoutLine
          ? (chunk) => {
              pending += chunk;
              const lines = pending.split("\n");
              pending = lines.pop() ?? "";
              for (const line of lines) onStdoutLine(line.trim());
            }
          : undefined,
        onError: (error) => {
          done();
          reject(error);
        },
        onClose: (code, stderr) => {
          done();
          if (signal?.aborted) reject(signal.reason);
          else if (failure) reject(failure.error);
          else if (code === 0) resolve();
          else reject(new ProcessFailedError(command.split("/").pop() ?? command, code, stderr));
        },
      },
    );
    signal?.addEventListener("abort", abort, { once: true });
    pipe3?.then(run.input, (error: unknown) => {
      failure = { error };
      run.kill();
    });
  });
}

/** What a tool printed: its stdout (at most 1 MB; more kills it) and the last 4,000 characters of stderr. */
export type ProcessOutput = { code: number | null; stdout: string; stderr: string };

/**
 * Runs a tool that answers on stdout or stderr (ffprobe) and gives back what it printed and its exit code
 * (null when it was killed: past `timeoutMs`, or printing too much). Rejects only when it cannot start.
 */
export function readProcess(
  command: string,
  args: string[],
  { timeoutMs = 15_000 }: { timeoutMs?: number } = {},
): Promise<ProcessOutput> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    const run = hostedRun(
      { command, args, input: false },
      {
        onStdout: (chunk) => {
          stdout += chunk;
          if (stdout.length > 1024 * 1024) run.kill();
        },
        onError: (error) => {
          clearTimeout(timer);
          reject(error);
        },
        onClose: (code, stderr) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        },
      },
    );
    const timer = setTimeout(run.kill, timeoutMs);
  });
}
