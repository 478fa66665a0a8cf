import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** What one tool's run reports back: stdout as it comes (when asked for), then how it ended. */
export type HostedRunEvents = {
  onStdout?: (chunk: string) => void;
  onError: (error: Error) => void;
  onClose: (code: number | null, stderr: string) => void;
};

export type HostedRun = { input: (text: string) => void; kill: () => void };

type HostMessage =
  | { type: "stdout"; id: number; chunk: string }
  | { type: "error"; id: number; message: string; code?: string }
  | { type: "close"; id: number; code: number | null; stderr: string };

type Host = { child: ChildProcess; runs: Map<number, HostedRunEvents>; nextId: number };

const SCRIPT = path.join(/*turbopackIgnore: true*/ process.cwd(), "scripts", "process-host.mjs");

// One host per process, across Next's route bundles and hot reloads.
const g = globalThis as typeof globalThis & { __brandStudioProcessHost?: Host };

/**
 * The process host (scripts/process-host.mjs): a small Node process that starts the tools for this one, so
 * that the fork of a 300–400 MB web process never holds its event loop. Started once, at the worker's start
 * while the process is still small; a host that died is replaced by the next run.
 */
export function startProcessHost(): Host {
  const running = g.__brandStudioProcessHost;
  if (running?.child.connected) return running;
  if (!fs.existsSync(SCRIPT)) throw new Error(`The process host is missing: ${SCRIPT}.`);
  // Its own options only: the app's (--conditions, --import tsx) would load what the host never uses.
  const child = spawn(process.execPath, [SCRIPT], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const host: Host = { child, runs: new Map(), nextId: 1 };
  g.__brandStudioProcessHost = host;
  child.on("message", (message: HostMessage) => {
    const run = host.runs.get(message.id);
    if (!run) return;
    if (message.type === "stdout") return run.onStdout?.(message.chunk);
    settle(host, message.id);
    if (message.type === "close") run.onClose(message.code, message.stderr);
    else run.onError(Object.assign(new Error(message.message), { code: message.code }));
  });
  const lost = () => {
    if (g.__brandStudioProcessHost === host) g.__brandStudioProcessHost = undefined;
    for (const [id, run] of host.runs) {
      settle(host, id);
      run.onError(new Error("The process host stopped while a tool was running."));
    }
  };
  child.on("exit", lost);
  child.on("error", lost);
  // Idle, the host keeps nothing alive: a process with no run in flight may exit.
  child.unref();
  child.channel?.unref();
  return host;
}

function settle(host: Host, id: number) {
  host.runs.delete(id);
  if (host.runs.size === 0) host.child.channel?.unref();
}

/** Starts `command` in the host. `input: true` gives it fd 3 to read, filled by `input(text)`. */
export function hostedRun(
  spec: { command: string; args: string[]; cwd?: string; input: boolean },
  events: HostedRunEvents,
): HostedRun {
  const host = startProcessHost();
  const id = host.nextId++;
  host.runs.set(id, events);
  // A run in flight keeps the process alive until it ends, as the tool itself would.
  host.child.channel?.ref();
  const send = (message: object) => {
    if (host.child.connected) host.child.send(message);
  };
  send({ type: "start", id, ...spec, stdout: Boolean(events.onStdout) });
  return {
    input: (text) => send({ type: "input", id, text }),
    kill: () => send({ type: "kill", id }),
  };
}
