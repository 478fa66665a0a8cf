import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");

export type WorkerProcess = {
  child: ChildProcess;
  pid: number;
  /** Everything the worker printed so far. */
  logs: () => string;
  /** The worker's structured log lines with this event name. */
  events: (event: string) => Record<string, unknown>[];
  exited: Promise<number | null>;
  stop: () => Promise<void>;
};

/**
 * Starts `npm run worker` as one plain node process (node --import tsx, so a signal reaches the worker
 * itself rather than a wrapper), sharing the test server's database and media folder. The react-server
 * condition lets the `import "server-only"` of db and the services load outside Next, as in `npm run worker`.
 */
export function startWorkerProcess(env: Record<string, string | undefined>): WorkerProcess {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "worker/index.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const events = (event: string) =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return {};
        }
      })
      .filter((line) => line.event === event);
  return {
    child,
    pid: child.pid as number,
    logs: () => output,
    events,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/**
 * `kill -9` at random moments: each round starts a worker, lets it run `minMs` plus up to `spreadMs`, and
 * kills it without warning. Resolves with the number of workers killed.
 */
export async function killWorkersAtRandom(
  startWorker: () => Promise<WorkerProcess>,
  { rounds, minMs, spreadMs }: { rounds: number; minMs: number; spreadMs: number },
) {
  let kills = 0;
  for (let round = 0; round < rounds; round++) {
    const worker = await startWorker();
    await new Promise((resolve) => setTimeout(resolve, minMs + Math.floor(Math.random() * spreadMs)));
    worker.child.kill("SIGKILL");
    await worker.exited;
    kills++;
  }
  return kills;
}
