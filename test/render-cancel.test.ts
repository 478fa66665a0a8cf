import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDatabase } from "@/db/client";
import { announceCanceled, listenForCancels, whileRendering } from "@/lib/video/render-cancel";
import { migrateInProcess } from "./support/database";

// A cancel stops the render at once: in the canceling process directly, and in every worker process on
// PostgreSQL through NOTIFY video_job_canceled (the worker's progress write is only the backstop).
beforeAll(async () => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bs-render-cancel-"));
  await migrateInProcess();
});
afterAll(() => closeDatabase());

const stopped = () => {
  let resolve: (jobId: string) => void = () => {};
  const promise = new Promise<string>((done) => {
    resolve = done;
  });
  return { promise, stop: (jobId: string) => () => resolve(jobId) };
};

describe("render cancel", () => {
  it("stops a running render in this process, and only that one", async () => {
    const calls: string[] = [];
    const forgetA = whileRendering("vjb_cancel_a", () => calls.push("a"));
    const forgetB = whileRendering("vjb_cancel_b", () => calls.push("b"));
    await announceCanceled("vjb_cancel_a");
    expect(calls).toEqual(["a"]);
    forgetA();
    await announceCanceled("vjb_cancel_a");
    expect(calls).toEqual(["a"]);
    forgetB();
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "hears a cancel another process announces (PostgreSQL NOTIFY)",
    async () => {
      await listenForCancels();
      const { promise, stop } = stopped();
      const forget = whileRendering("vjb_cancel_remote", stop("vjb_cancel_remote"));
      const database = await getDatabase();
      if (database.kind !== "postgres") throw new Error("expected PostgreSQL");
      // Another process's connection: a plain NOTIFY, as announceCanceled sends it there.
      const other = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        await other`select pg_notify('video_job_canceled', 'vjb_cancel_remote')`;
        expect(await promise).toBe("vjb_cancel_remote");
      } finally {
        forget();
        await other.end({ timeout: 1 });
      }
    },
  );
});
