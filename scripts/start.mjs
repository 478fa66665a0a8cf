// `npm start`: the production web server. The configuration is checked before Next opens its port (see
// lib/server/check-start-config.ts), then Next's own `next start` runs in this same process, so signals
// (SIGTERM from Docker or a test) reach the server directly. Arguments pass through: `npm start -- -p 4000`.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

// glibc gives every thread that allocates its own malloc arena and keeps what it freed there for that thread.
// sharp's image threads (a card for every new draft) left a server at 447 MB idle after 1,000 drafts, and at
// 334 MB with two arenas (bench/notes.md, "Idle RSS"). glibc reads the limit only when a process starts, so
// this one re-executes itself once with it set: the same pid, so signals still reach the server. A limit the
// environment already sets (the image sets 2) is kept.
if (!process.env.MALLOC_ARENA_MAX && typeof process.execve === "function") {
  const argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, argv, { ...process.env, MALLOC_ARENA_MAX: "2" });
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { checkStartConfig } = await tsImport("../lib/server/check-start-config.ts", import.meta.url);
checkStartConfig(root);

// Idle keep-alive connections stay open 65 s, not Node's 5 s. A client or a load balancer that keeps its
// idle connections longer than the server (browsers, AWS ALB and nginx's 60 s) may reuse one just as the
// server closes it, and that request fails with ECONNRESET (a 502 behind a proxy). `--keepAliveTimeout`
// passed to `npm start` wins.
const args = process.argv.slice(2);
if (!args.some((arg) => arg.startsWith("--keepAliveTimeout"))) args.push("--keepAliveTimeout", "65000");

const require = createRequire(import.meta.url);
process.argv = [process.argv[0], require.resolve("next/dist/bin/next"), "start", ...args];
require("next/dist/bin/next");
