import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "@/lib/api/error-codes";
import { errorEnvelope } from "@/lib/contracts/common";
import type { Operation } from "@/lib/contracts/operation";
import packageJson from "@/package.json";
import { ERROR_DESCRIPTIONS, ERROR_HEADERS } from "./error-descriptions";

type JsonObject = Record<string, unknown>;
type JsonSchema = JsonObject & { properties?: Record<string, JsonObject>; required?: string[] };

const ENVELOPE_REF = { $ref: "#/components/schemas/ErrorEnvelope" };

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Any unique string (a UUID). A retry with the same key and body replays the first success " +
    "(`Idempotent-Replayed: true`) instead of doing the work again; records live 24 hours.",
  schema: { type: "string", maxLength: 200 },
};

const HEADER_DESCRIPTIONS: Record<string, string> = {
  "X-Request-Id": "The request's id; error bodies carry the same id.",
  Location: "The URL of the created resource.",
  "Retry-After": "Seconds to wait before polling or retrying.",
  ETag: "Version of the representation; send it back as If-None-Match.",
  "Cache-Control": "Caching policy of the response.",
  "WWW-Authenticate": 'Bearer error="invalid_token"',
  "X-RateLimit-Limit": "Requests allowed in the current window.",
  "X-RateLimit-Remaining": "Requests left in the current window.",
  "X-RateLimit-Reset": "Seconds until the window resets.",
};

const headerObjects = (names: string[]) =>
  Object.fromEntries(
    ["X-Request-Id", ...names].map((name) => [
      name,
      { description: HEADER_DESCRIPTIONS[name] ?? name, schema: { type: "string" } },
    ]),
  );

/**
 * Converts zod schemas to JSON Schema (draft 2020-12, which OpenAPI 3.1 uses as is). Schemas with a
 * `.meta({ id })` become shared components; request bodies convert the input side (`io: "input"`), so
 * fields with defaults are optional there.
 */
class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  constructor() {
    // Registers the envelope as a component even for an operation list without errors.
    this.convert(errorEnvelope, "output");
  }

  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const {
      $schema: _dialect,
      $defs = {},
      ...rest
    } = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    // The input side of a shared schema can differ from its output side (defaults): keep both.
    const rename = new Map<string, string>();
    for (const [name, definition] of Object.entries($defs)) {
      const existing = this.components[name];
      const same = !existing || JSON.stringify(existing) === JSON.stringify(relink(definition, new Map()));
      rename.set(name, same ? name : `${name}Input`);
    }
    for (const [name, definition] of Object.entries($defs)) {
      this.components[rename.get(name)!] = relink(definition, rename);
    }
    return relink(rest, rename);
  }
}

/** Points `#/$defs/X` references of a converted schema at the document's components. */
function relink(schema: JsonSchema, rename: Map<string, string>): JsonSchema {
  const text = JSON.stringify(schema).replace(
    /"#\/\$defs\/([^"]+)"/g,
    (_, name: string) => `"#/components/schemas/${rename.get(name) ?? name}"`,
  );
  return JSON.parse(text) as JsonSchema;
}

function parametersOf(converter: SchemaConverter, schema: z.ZodObject | undefined, where: "path" | "query") {
  if (!schema) return [];
  const json = converter.convert(schema, "input");
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      required: where === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

const errorExample = (operation: Operation, code: ErrorCode) => ({
  summary: ERROR_DESCRIPTIONS[code],
  value: {
    error: {
      code,
      message: ERROR_DESCRIPTIONS[code],
      retryable: ERROR_CODES[code].retryable,
      requestId: "req_Jx0c7hVZ1Kq2wR8sT3uY5A",
      docUrl: `/api-docs/${operation.id}#errors`,
    },
  },
});

/** Every error code of the operation, grouped by HTTP status, each a response with the ErrorEnvelope body. */
function errorResponses(operation: Operation) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operation.errors) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus].map(([status, codes]) => [
    status,
    {
      description: codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join(" "),
      "x-error-codes": codes,
      headers: headerObjects([...new Set(codes.flatMap((code) => ERROR_HEADERS[code] ?? []))]),
      content: {
        "application/json": {
          schema: ENVELOPE_REF,
          examples: Object.fromEntries(codes.map((code) => [code, errorExample(operation, code)])),
        },
      },
    },
  ]) as [number, JsonObject][];
}

function operationObject(converter: SchemaConverter, operation: Operation) {
  const responses: Record<string, JsonObject> = {};
  const errors = new Map(errorResponses(operation));
  for (const [status, response] of Object.entries(operation.responses)) {
    const schema = response.schema && converter.convert(response.schema, "output");
    const error = errors.get(Number(status));
    errors.delete(Number(status));
    responses[status] = {
      ...error,
      // A status can be both a documented answer and an error (health's 503): the body is one of the two.
      description: error ? `${response.description} ${error.description}` : response.description,
      headers: headerObjects(response.headers ?? []),
      ...(schema
        ? { content: { "application/json": { schema: error ? { oneOf: [schema, ENVELOPE_REF] } : schema } } }
        : {}),
    };
  }
  for (const [status, response] of errors) responses[status] = response;
  if (operation.stream) {
    // OpenAPI 3.1 has no event-stream type: the schema is that of each line (one JSON event a line).
    responses["200"] = {
      description: operation.stream.description,
      content: {
        [operation.stream.contentType]: { schema: converter.convert(operation.stream.event, "output") },
      },
    };
  }
  return {
    operationId: operation.id,
    summary: operation.title,
    description: `${operation.summary}\n\nDocs card: [/api-docs/${operation.id}](/api-docs/${operation.id}).`,
    tags: [operation.path.split("/")[2]],
    ...(operation.auth === "none" ? { security: [] } : {}),
    parameters: [
      ...parametersOf(converter, operation.pathParams, "path"),
      ...parametersOf(converter, operation.query, "query"),
      // An operation that can answer idempotency_conflict is one that honours Idempotency-Key.
      ...(operation.errors.includes("idempotency_conflict") ? [IDEMPOTENCY_KEY] : []),
    ],
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: {
              [operation.bodyContentType ?? "application/json"]: {
                schema: converter.convert(operation.body, "input"),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every operation in the registry. */
export function buildOpenApiDocument(operations: readonly Operation[]) {
  const converter = new SchemaConverter();
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    paths[operation.path][operation.method.toLowerCase()] = operationObject(converter, operation);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Brand Studio API",
      version: packageJson.version,
      description:
        "Generates on-brand social posts and videos. Every error answers the ErrorEnvelope body with a string " +
        "`code`; each operation's docs card at /api-docs/{operationId} explains it for frontend developers.",
    },
    // Relative: the API is served from wherever this document is, behind any proxy.
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "The signed-in session's access token, or an API key. Both go in `Authorization: Bearer`.",
        },
      },
      schemas: converter.components,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
