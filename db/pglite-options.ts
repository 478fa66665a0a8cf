import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * PGlite's memory. Its WebAssembly heap never shrinks, so what it touches stays in the process's RSS:
 * - PostgreSQL's default 128 MB of shared buffers; the app's tables are small, and the files they are
 *   read from stay in the OS page cache anyway, so 16 MB is plenty (about 120 MB less RSS);
 * - `initdb`, run by PGlite inside the process the first time a folder is opened, leaves about 400 MB
 *   behind. A new folder is therefore initialised by a short-lived child process instead.
 */
const SHARED_BUFFERS = "16MB";

export async function pgliteStartParams() {
  const { PGlite } = await import("@electric-sql/pglite");
  return [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`];
}

/** Runs initdb for a folder that has no database yet, in a child process. False if that did not work. */
export async function initPgliteInChild(folder: string): Promise<boolean> {
  if (fs.existsSync(path.join(folder, "PG_VERSION"))) return true;
  const script = `const { PGlite } = await import("@electric-sql/pglite");
const db = await PGlite.create(${JSON.stringify(folder)});
await db.close();`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: process.cwd(),
      stdio: "ignore",
    });
    child.once("error", () => resolve(false));
    child.once("exit", (code) => resolve(code === 0 && fs.existsSync(path.join(folder, "PG_VERSION"))));
  });
}
