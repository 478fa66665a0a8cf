import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { operations } from "@/lib/contracts";
import { inputFields } from "@/lib/docs/contract-fields";
import { ERROR_CODES } from "@/lib/errors/error-codes";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";
import { api } from "./support/http";

// biome-ignore lint/suspicious/noExplicitAny: the test walks the generated document as plain JSON.
type Json = Record<string, any>;

async function validate(document: unknown) {
  return new Validator().validate(structuredClone(document) as Json);
}

describe("GET /api/openapi.json", () => {
  it("is public, JSON, and a valid OpenAPI 3.1 document of every operation in the registry", async () => {
    const { status, body, headers } = await api("/api/openapi.json");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/application\/json/);
    expect(body.openapi).toBe("3.1.0");
    expect(await validate(body)).toEqual({ valid: true });
    const ids = Object.values(body.paths as Json).flatMap((methods) =>
      Object.values(methods as Json).map((entry) => entry.operationId),
    );
    expect(ids.sort()).toEqual(operations.map((operation) => operation.id).sort());
    expect(body.servers).toEqual([{ url: "/" }]);
  });
});

describe("the OpenAPI document", () => {
  const document = buildOpenApiDocument(operations) as Json;
  const entryOf = (operation: (typeof operations)[number]) =>
    document.paths[operation.path][operation.method.toLowerCase()] as Json;

  it("is rejected by the validator when it is broken (the validator is really checking)", async () => {
    const broken = structuredClone(document);
    const [first] = operations;
    const responses = broken.paths[first.path][first.method.toLowerCase()].responses;
    delete Object.values(responses as Json)[0].description;
    expect((await validate(broken)).valid).toBe(false);
  });

  it("uses bearer security, with public operations opting out", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const operation of operations) {
      expect(entryOf(operation).security, operation.id).toEqual(operation.auth === "none" ? [] : undefined);
    }
  });

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    "%s documents every error code under its HTTP status with the ErrorEnvelope body",
    (_id, operation) => {
      const responses = entryOf(operation).responses as Record<string, Json>;
      const documented = Object.entries(responses).flatMap(([status, response]) =>
        (response["x-error-codes"] ?? []).map((code: keyof typeof ERROR_CODES) => {
          expect(ERROR_CODES[code].status, code).toBe(Number(status));
          expect(response.description).toContain(`\`${code}\``);
          const schema = response.content["application/json"].schema;
          const envelopeRef = { $ref: "#/components/schemas/ErrorEnvelope" };
          expect(schema.oneOf ? schema.oneOf : [schema]).toContainEqual(envelopeRef);
          expect(response.content["application/json"].examples[code].value.error.code).toBe(code);
          return code;
        }),
      );
      expect(documented.sort()).toEqual([...operation.errors].sort());
      for (const status of Object.keys(operation.responses)) expect(responses[status]).toBeDefined();
    },
  );

  it.each(operations.map((operation) => [operation.id, operation] as const))(
    "%s takes its path and query parameters and body from the zod contract",
    (_id, operation) => {
      const entry = entryOf(operation);
      const parameters = (entry.parameters as Json[])
        .filter((parameter) => parameter.in !== "header")
        .map((parameter) => `${parameter.in}:${parameter.name}`);
      const expected = inputFields(operation)
        .filter((field) => field.in !== "body")
        .map((field) => `${field.in}:${field.name}`);
      expect(parameters.sort()).toEqual(expected.sort());
      expect(Boolean(entry.requestBody)).toBe(Boolean(operation.body));
      if (operation.body) {
        expect(Object.keys(entry.requestBody.content)).toEqual([
          operation.bodyContentType ?? "application/json",
        ]);
      }
    },
  );

  it("documents Idempotency-Key where idempotency_conflict can be answered, If-None-Match where 304 can", () => {
    for (const operation of operations) {
      const headers = (entryOf(operation).parameters as Json[]).filter(
        (parameter) => parameter.in === "header",
      );
      const expected = [
        ...(operation.errors.includes("idempotency_conflict") ? ["Idempotency-Key"] : []),
        ...(operation.responses[304] ? ["If-None-Match"] : []),
      ];
      expect(
        headers.map((header) => header.name),
        operation.id,
      ).toEqual(expected);
    }
  });

  it("holds the error envelope as a shared component, one variant per error code", () => {
    const schemas = document.components.schemas;
    expect(schemas.ErrorEnvelope.properties.error).toEqual({ $ref: "#/components/schemas/Error" });
    expect(Object.keys(schemas.Error.discriminator.mapping).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
      const variant = schemas[`Error_${code}`];
      expect(variant.required).toEqual(["code", "message", "retryable", "requestId", "docUrl"]);
      expect(variant.properties.code.const).toBe(code);
      expect(variant.properties.retryable.const).toBe(ERROR_CODES[code].retryable);
    }
  });
});
