import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openApiTypes } from "@/scripts/openapi-types";
import { signIn } from "./support/auth";
import { baseUrl } from "./support/http";
import { runFlow } from "./typed-client/flow";

const run = promisify(execFile);

describe("the typed client (openapi-typescript + openapi-fetch)", () => {
  it("types/api.d.ts is what npm run api:types generates now (committed and up to date)", async () => {
    expect(fs.readFileSync("types/api.d.ts", "utf8")).toBe(await openApiTypes());
  });

  it("a client program type-checks with tsc --strict", async () => {
    const tsc = path.resolve("node_modules/.bin/tsc");
    const args = ["--strict", "--noEmit", "--skipLibCheck", "--target", "es2022", "--module", "esnext"];
    args.push("--moduleResolution", "bundler", "--types", "node", "test/typed-client/flow.ts");
    const result = await run(tsc, args).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(result.stdout).toBe("");
  }, 120_000);

  it("runs sign-up → key → brand → post → video → poll (with 304s) → list against a live server", async () => {
    const server = baseUrl();
    const result = await runFlow(
      server,
      async (email, password) => (await signIn(server, email, password)).accessToken,
    );
    expect(
      result.log.map((entry) => entry.step).filter((step, index, all) => all.indexOf(step) === index),
    ).toEqual(["sign-up", "key", "brand", "post", "video", "poll", "list"]);
    expect(result.log.find((entry) => entry.step === "video")?.status).toBe(202);
    expect(result.job?.status).toBe("succeeded");
    expect(result.job?.videoUrl).toBeTruthy();
    expect(result.etag).toBeTruthy();
    expect(result.finalStatus).toBe(304);
    expect(result.notModified).toBeGreaterThanOrEqual(1);
    expect(result.listed).toContain(result.jobId);
    // Every poll answered 200 or 304; the flow sent If-None-Match after the first.
    for (const entry of result.log.filter((item) => item.step === "poll"))
      expect([200, 304]).toContain(entry.status);
  }, 300_000);
});
