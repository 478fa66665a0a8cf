import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * PGlite has no lock of its own: two processes on one folder silently lose rows. This lock file holds
 * the owner's pid and host; a lock whose process is gone is taken over.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The embedded database in ${dir} is already open in process ${ownerPid}. ` +
        "PGlite allows one process per folder. Stop that process, point DATA_DIR at another folder, " +
        "or set DATABASE_URL to use PostgreSQL, which any number of processes can share.",
    );
    this.name = "DataDirLockedError";
  }
}

type LockOwner = { pid: number; host: string };

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(file: string): LockOwner | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as LockOwner;
  } catch {
    return null;
  }
}

export function acquireDataDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "pglite.lock");
  const me: LockOwner = { pid: process.pid, host: os.hostname() };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: "wx" });
      return () => {
        if (readOwner(file)?.pid === me.pid) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readOwner(file);
    if (owner && owner.pid === me.pid && owner.host === me.host) return () => {};
    if (owner && owner.host === me.host && isAlive(owner.pid)) throw new DataDirLockedError(dir, owner.pid);
    if (owner && owner.host !== me.host) throw new DataDirLockedError(dir, owner.pid);
    // Stale (dead owner) or unreadable half-written lock: remove it and try again.
    fs.rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock on ${file}.`);
}
