import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { operations } from "@/lib/contracts";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";

const run = promisify(execFile);
const bin = (name: string) => path.resolve("node_modules/.bin", name);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));

// biome-ignore lint/suspicious/noExplicitAny: the test edits the generated document as plain JSON.
type Json = Record<string, any>;

function write(name: string, document: unknown) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
}

/** Runs a linter that exits non-zero on problems; its JSON report is on stdout either way. */
async function lint(command: string, args: string[]) {
  try {
    return (await run(command, args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (!stdout) throw error;
    return stdout;
  }
}

const ruleset = path.join(dir, ".spectral.yaml");
fs.writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');

/** Spectral with the `spectral:oas` ruleset: the problems of severity error (0). */
async function spectralErrors(file: string) {
  const report = JSON.parse(
    await lint(bin("spectral"), ["lint", "-r", ruleset, "-f", "json", "--quiet", file]),
  ) as { code: string; message: string; path: string[]; severity: number }[];
  return report.filter((problem) => problem.severity === 0);
}

/** Redocly with the `recommended` ruleset: the problems of severity error. */
async function redoclyErrors(file: string) {
  const report = JSON.parse(
    await lint(bin("redocly"), ["lint", "--extends=recommended", "--format=json", file]),
  ) as { problems: { ruleId: string; message: string; severity: string }[] };
  return report.problems.filter((problem) => problem.severity === "error");
}

/** A copy of the document with the mistakes the linters must catch: an undefined $ref, an invalid example. */
function broken(document: Json) {
  const copy = structuredClone(document);
  copy.components.schemas.Brand.properties.name = { $ref: "#/components/schemas/NoSuchSchema" };
  copy.components.schemas.VideoJob.properties.progress.example = "half";
  return copy;
}

describe("third-party OpenAPI linters", () => {
  const document = buildOpenApiDocument(operations) as Json;
  const file = write("openapi.json", document);
  const brokenFile = write("broken.json", broken(document));
  // The four runs at once, each linter a process per file: Spectral takes about 18 s a document, and the
  // tests otherwise leave the machine's other core idle. On a machine loaded by other work (load 12 on two
  // cores) the four took over 120 s once, hence the generous timeouts: they bound a hung linter, nothing else.
  let reports: ReturnType<typeof lintAll> | undefined;
  const lintAll = async () => {
    const [spectral, spectralBroken, redocly, redoclyBroken] = await Promise.all([
      spectralErrors(file),
      spectralErrors(brokenFile),
      redoclyErrors(file),
      redoclyErrors(brokenFile),
    ]);
    return { spectral, spectralBroken, redocly, redoclyBroken };
  };
  const lintReports = () => {
    reports ??= lintAll();
    return reports;
  };

  it("spectral (spectral:oas) finds no errors in the document", async () => {
    expect((await lintReports()).spectral).toEqual([]);
  }, 300_000);

  it("redocly (recommended) finds no errors in the document", async () => {
    expect((await lintReports()).redocly).toEqual([]);
  }, 300_000);

  it("both linters do report errors in a broken copy (they are really checking)", async () => {
    const { spectralBroken, redoclyBroken } = await lintReports();
    expect(spectralBroken.length).toBeGreaterThan(0);
    expect(redoclyBroken.length).toBeGreaterThan(0);
  }, 300_000);

  it("documents every header the API sends, with top-level tags for every operation tag", () => {
    const tags = new Set((document.tags as Json[]).map((tag) => tag.name));
    const sent = new Set<string>();
    for (const methods of Object.values(document.paths as Json)) {
      for (const entry of Object.values(methods as Json)) {
        for (const tag of entry.tags) expect(tags).toContain(tag);
        for (const response of Object.values(entry.responses as Json)) {
          expect(Object.keys(response.headers)).toContain("X-Request-Id");
          for (const name of Object.keys(response.headers)) sent.add(name);
        }
      }
    }
    for (const name of [
      "X-Request-Id",
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "Retry-After",
      "Idempotent-Replayed",
      "ETag",
      "Location",
      "WWW-Authenticate",
    ]) {
      expect(sent, name).toContain(name);
    }
    const status = document.paths["/api/video/jobs/{jobId}"].get;
    expect(Object.keys(status.responses["304"].headers)).toEqual(
      expect.arrayContaining(["ETag", "Retry-After", "Cache-Control"]),
    );
    expect(status.parameters.map((parameter: Json) => parameter.name)).toContain("If-None-Match");
  });

  it("types error details per code, and states oneOf, minProperties and no request defaults", () => {
    const schemas = document.components.schemas as Json;
    expect(schemas.Error.discriminator.propertyName).toBe("code");
    expect(schemas.Error_quota_exceeded.properties.details.required).toEqual(["limit", "used", "resetsAt"]);
    expect(schemas.Error_invalid_request.properties.details.type).toBe("array");
    const video = document.paths["/api/video/jobs"].post.requestBody.content["application/json"].schema;
    expect(video.oneOf).toEqual([{ required: ["postId"] }, { required: ["script"] }]);
    expect(schemas.UpdateBrandRequest.minProperties).toBe(1);
    const patchPost = document.paths["/api/posts/{postId}"].patch.requestBody.content["application/json"];
    expect(patchPost.schema.minProperties).toBe(1);
    expect(schemas.CreateBrandRequest.required).toEqual(["name"]);
    expect(JSON.stringify(schemas.CreateBrandRequest)).not.toContain('"default"');
    expect(schemas.Error_service_unavailable).toBeDefined();
    expect(schemas.Error_payload_too_large).toBeDefined();
  });
});
