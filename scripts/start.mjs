// `npm start`: the production web server. The configuration is checked before Next opens its port (see
// lib/server/check-start-config.ts), then Next's own `next start` runs in this same process, so signals
// (SIGTERM from Docker or a test) reach the server directly. Arguments pass through: `npm start -- -p 4000`.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { checkStartConfig } = await tsImport("../lib/server/check-start-config.ts", import.meta.url);
checkStartConfig(root);

const require = createRequire(import.meta.url);
process.argv = [process.argv[0], require.resolve("next/dist/bin/next"), "start", ...process.argv.slice(2)];
require("next/dist/bin/next");
