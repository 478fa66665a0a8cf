#!/usr/bin/env node
// The process host: a small Node process that the app starts once, early, and that starts its media tools
// (ffmpeg, ffprobe, the speech engines) on its behalf (lib/ffmpeg/process-host.ts). Starting a program forks the
// process that starts it, and forking the web process (300–400 MB) held its event loop for 45–106 ms a tool,
// so every render start stalled the polls of everyone waiting (bench/notes.md, "Enqueue → running"). Forking
// this one costs about a millisecond.
//
// It speaks over the IPC channel, one JSON message at a time, each naming a run by the app's id:
//   app → host: { type: "start", id, command, args, cwd, input, stdout }   input: the tool reads fd 3
//               { type: "input", id, text }                                  what fd 3 carries, then EOF
//               { type: "kill", id }                                         SIGKILL
//   host → app: { type: "stdout", id, chunk }   only when asked for
//               { type: "error", id, message, code }   the tool could not start
//               { type: "close", id, code, signal, stderr }   the last 4,000 characters of stderr
import { spawn } from "node:child_process";

const runs = new Map();
const send = (message) => process.connected && process.send(message);

function start({ id, command, args, cwd, input, stdout }) {
  let child;
  try {
    child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe", input ? "pipe" : "ignore"] });
  } catch (error) {
    send({ type: "error", id, message: error.message, code: error.code });
    return;
  }
  runs.set(id, child);
  // A tool that exits without reading all of fd 3 is its exit's business, not a write error's.
  child.stdio[3]?.on("error", () => {});
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => stdout && send({ type: "stdout", id, chunk }));
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.on("error", (error) => {
    runs.delete(id);
    send({ type: "error", id, message: error.message, code: error.code });
  });
  child.on("close", (code, signal) => {
    runs.delete(id);
    send({ type: "close", id, code, signal, stderr });
  });
}

process.on("message", (message) => {
  if (message.type === "start") start(message);
  else if (message.type === "input") runs.get(message.id)?.stdio[3]?.end(message.text);
  else if (message.type === "kill") runs.get(message.id)?.kill("SIGKILL");
});

// The app is gone (it exited, crashed or was killed): its tools stop with it, at once.
process.on("disconnect", () => {
  for (const child of runs.values()) child.kill("SIGKILL");
  process.exit(0);
});
// A SIGTERM or SIGINT sent to the whole process group (Docker, a terminal's Ctrl-C) is the app's to handle:
// it cancels its renders, and this host goes when the app does.
process.on("SIGTERM", () => {});
process.on("SIGINT", () => {});
