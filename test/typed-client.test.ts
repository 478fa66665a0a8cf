import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { openApiTypes } from "@/scripts/openapi-types";
import { signIn } from "./support/auth";
import { api, baseUrl } from "./support/http";
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
    ).toEqual(["sign-up", "key", "brand", "post", "video", "poll", "cancel", "list"]);
    // The JSON generate-post answer was used as a Post (no cast; tsc --strict above) and is one.
    expect(result.post.postId).toMatch(/^pst_/);
    expect(result.post.caption.length).toBeGreaterThan(0);
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

    // Canceling the finished job: 409 job_not_cancelable, typed by the client and valid against the document.
    expect(result.cancel.status).toBe(409);
    expect(result.cancel.notCancelable).toEqual({ status: "succeeded" });
    const document = (await api("/api/openapi.json", { server })).body;
    const documented = document.paths["/api/video/jobs/{jobId}"].delete.responses["409"];
    expect(documented["x-error-codes"]).toEqual(["job_not_cancelable"]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile({
      ...documented.content["application/json"].schema,
      components: document.components,
    });
    expect(validate(result.cancel.body), JSON.stringify(validate.errors)).toBe(true);
    // The same validator refuses the shape the cancel used to answer (invalid_request with an object).
    const old = { error: { ...result.cancel.body?.error, code: "invalid_request" } };
    expect(validate(old)).toBe(false);
  }, 300_000);
});
