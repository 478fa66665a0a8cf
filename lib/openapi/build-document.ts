import { z } from "zod";
import { ERROR_DETAILS } from "@/lib/contracts/error-details";
import type { Operation } from "@/lib/contracts/operation";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors/error-codes";
import packageJson from "@/package.json";
import { ERROR_DESCRIPTIONS, ERROR_HEADERS } from "./error-descriptions";
import { fixUnicodePatterns, stripRequestDefaults } from "./schema-fixes";
import { API_TAGS, tagOf } from "./tags";

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

const IF_NONE_MATCH = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The ETag of the last 200. While nothing has changed the answer is 304 with no body.",
  schema: { type: "string" },
};

const integer = { type: "integer", minimum: 0 };

/** Every response header the API sends, with its type. */
const HEADERS: Record<string, { description: string; schema: JsonObject }> = {
  "X-Request-Id": {
    description:
      "The request's id; an error body's `requestId` is the same. Quote it when reporting a problem.",
    schema: { type: "string", example: "req_Jx0c7hVZ1Kq2wR8sT3uY5A" },
  },
  Location: {
    description: "The URL of the created resource.",
    schema: { type: "string", format: "uri-reference" },
  },
  "Retry-After": { description: "Seconds to wait before polling or retrying.", schema: integer },
  ETag: {
    description:
      "Version of the representation; send it back as `If-None-Match` to get 304 while it is unchanged.",
    schema: { type: "string" },
  },
  "Cache-Control": {
    description: "Always `no-store`: a status changes while it is polled.",
    schema: { type: "string" },
  },
  "WWW-Authenticate": { description: 'Always `Bearer error="invalid_token"`.', schema: { type: "string" } },
  "X-RateLimit-Limit": {
    description:
      "Requests allowed per one-minute window for this token (for sign-up: this client address; for invitations: per hour, the owner's or the brand's limit, whichever has less left). Sent with every answer the limit counted; a replay (`Idempotent-Replayed: true`) is not counted and carries none of the X-RateLimit-* headers.",
    schema: integer,
  },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: integer },
  "X-RateLimit-Reset": {
    description: "When the current window ends: a Unix time in seconds (not a number of seconds to wait).",
    schema: integer,
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this response replays the first success of the same `Idempotency-Key` and body; absent otherwise.",
    schema: { type: "string", enum: ["true"] },
  },
};

const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];

const headerObjects = (names: string[]) =>
  Object.fromEntries(
    [...new Set(["X-Request-Id", ...names])].map((name) => [
      name,
      HEADERS[name] ?? { description: name, schema: { type: "string" } },
    ]),
  );

/** Headers of an operation's success responses that come from its wrappers (rate limit, idempotency). */
const successHeaders = (operation: Operation) => [
  ...(operation.errors.includes("rate_limited") ? RATE_LIMIT_HEADERS : []),
  ...(operation.errors.includes("idempotency_conflict") ? ["Idempotent-Replayed"] : []),
];

/**
 * Converts zod schemas to JSON Schema (draft 2020-12, which OpenAPI 3.1 uses as is). Schemas with a
 * `.meta({ id })` become shared components; request bodies convert the input side (`io: "input"`), so
 * fields with defaults are optional there.
 */
class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const {
      $schema: _dialect,
      $defs = {},
      ...rest
    } = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    fixUnicodePatterns(rest);
    for (const definition of Object.values($defs)) fixUnicodePatterns(definition);
    if (io === "input") {
      // A default makes generators (openapi-typescript) mark a field required; the server never needs it.
      stripRequestDefaults(rest);
      for (const definition of Object.values($defs)) stripRequestDefaults(definition);
    }
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
      headers: headerObjects([
        ...(response.headers ?? []),
        ...(Number(status) < 300 ? successHeaders(operation) : []),
        ...(error?.headers ? Object.keys(error.headers as JsonObject) : []),
      ]),
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
      headers: headerObjects(successHeaders(operation)),
      content: {
        [operation.stream.contentType]: { schema: converter.convert(operation.stream.event, "output") },
      },
    };
  }
  return {
    operationId: operation.id,
    summary: operation.title,
    description: `${operation.summary}\n\nDocs card: [/api-docs/${operation.id}](/api-docs/${operation.id}).`,
    tags: [tagOf(operation.path)],
    ...(operation.auth === "none" ? { security: [] } : {}),
    parameters: [
      ...parametersOf(converter, operation.pathParams, "path"),
      ...parametersOf(converter, operation.query, "query"),
      // An operation that can answer idempotency_conflict is one that honours Idempotency-Key.
      ...(operation.errors.includes("idempotency_conflict") ? [IDEMPOTENCY_KEY] : []),
      ...(operation.responses[304] ? [IF_NONE_MATCH] : []),
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

/**
 * ErrorEnvelope: `{ error }`, where `error` is one of a variant per code, discriminated by `code`, each with
 * that code's `details` (ERROR_DETAILS), so a generated client knows what `details` holds.
 */
function errorComponents(converter: SchemaConverter) {
  const variants = Object.fromEntries(
    (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
      const details = ERROR_DETAILS[code];
      const name = `Error_${code}`;
      return [
        name,
        {
          type: "object",
          description: `${ERROR_DESCRIPTIONS[code]} HTTP ${ERROR_CODES[code].status}.`,
          properties: {
            code: { type: "string", const: code },
            message: { type: "string", description: "A sentence to show the user as is." },
            retryable: { type: "boolean", const: ERROR_CODES[code].retryable },
            requestId: { type: "string", description: "The same id as the X-Request-Id header." },
            docUrl: { type: "string", description: "This error's section of the operation's docs card." },
            ...(details ? { details: converter.convert(details, "output") } : {}),
          },
          required: ["code", "message", "retryable", "requestId", "docUrl"],
        },
      ];
    }),
  );
  return {
    ...variants,
    Error: {
      description: "One variant per error code; `code` tells which, and so what `details` holds.",
      oneOf: Object.keys(variants).map((name) => ({ $ref: `#/components/schemas/${name}` })),
      discriminator: {
        propertyName: "code",
        mapping: Object.fromEntries(
          Object.keys(variants).map((name) => [name.slice("Error_".length), `#/components/schemas/${name}`]),
        ),
      },
    },
    ErrorEnvelope: {
      type: "object",
      description: "The body of every error response.",
      properties: { error: { $ref: "#/components/schemas/Error" } },
      required: ["error"],
    },
  };
}

/** The OpenAPI 3.1 document of every operation in the registry. */
export function buildOpenApiDocument(operations: readonly Operation[]) {
  const converter = new SchemaConverter();
  const errors = errorComponents(converter);
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
      contact: { name: "Brand Studio API docs (/api-docs)" },
      license: { name: "Proprietary" },
      description:
        "Generates on-brand social posts and videos. Every error answers the ErrorEnvelope body with a string " +
        "`code`; each operation's docs card at /api-docs/{operationId} explains it for frontend developers.",
    },
    // Relative: the API is served from wherever this document is, behind any proxy.
    servers: [{ url: "/" }],
    tags: API_TAGS.filter((tag) => operations.some((operation) => tagOf(operation.path) === tag.name)).map(
      ({ name, description }) => ({ name, description }),
    ),
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
      schemas: { ...converter.components, ...errors },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
