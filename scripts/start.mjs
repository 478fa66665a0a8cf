// `npm start`: the production web server. The configuration is checked before Next opens its port (see
// lib/server/check-start-config.ts), then Next's own `next start` runs in this same process, so signals
// (SIGTERM from Docker or a test) reach the server directly. Arguments pass through: `npm start -- -p 4000`.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";
import { allocatorEnv } from "./allocator.mjs";

// The allocator's settings (scripts/allocator.mjs: jemalloc when installed, else glibc with two arenas) are read
// only when a process starts, so this one re-executes itself once with them: the same pid, so signals still
// reach the server. What the environment already sets is kept.
const allocator = allocatorEnv(process.env);
if (Object.keys(allocator).length > 0 && typeof process.execve === "function") {
  const argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  process.execve(process.execPath, argv, { ...process.env, ...allocator });
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
