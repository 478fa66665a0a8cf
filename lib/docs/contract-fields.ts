import { z } from "zod";
import type { Operation } from "@/lib/contracts/operation";

type JsonSchema = {
  format?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

export type ContractField = { name: string; optional: boolean; in: "path" | "query" | "body" | "response" };

/** A schema as JSON Schema, with a root `$ref` (a schema that has a `.meta({ id })`) resolved. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output") {
  const root = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  const resolve = (node: JsonSchema): JsonSchema =>
    node.$ref ? resolve(root.$defs?.[node.$ref.split("/").pop()!] ?? {}) : node;
  return { root: resolve(root), resolve };
}

/** Top-level fields of a schema as JSON Schema sees them; in a union a field is optional unless every branch requires it. */
function topLevelFields(schema: z.ZodType, io: "input" | "output") {
  const { root, resolve } = jsonSchemaOf(schema, io);
  const branchesOf = (node: JsonSchema): JsonSchema[] => {
    const resolved = resolve(node);
    const union = resolved.anyOf ?? resolved.oneOf;
    // An object with a constraint-only union (`oneOf: [{ required: ["postId"] }, …]`): each branch is the
    // object plus that branch's requirements.
    if (union && resolved.properties) {
      return union.flatMap(branchesOf).map((branch) => ({
        properties: { ...resolved.properties, ...branch.properties },
        required: [...(resolved.required ?? []), ...(branch.required ?? [])],
      }));
    }
    if (union) return union.flatMap(branchesOf);
    if (resolved.allOf) {
      return [
        {
          properties: Object.assign({}, ...resolved.allOf.map((part) => resolve(part).properties)),
          required: resolved.allOf.flatMap((part) => resolve(part).required ?? []),
        },
      ];
    }
    return [resolved];
  };
  const branches = branchesOf(root);
  const names = [...new Set(branches.flatMap((branch) => Object.keys(branch.properties ?? {})))];
  return names.map((name) => ({
    name,
    optional: !branches.every((branch) => branch.required?.includes(name)),
  }));
}

/** The success response: the lowest 2xx status the operation answers, and its body schema (none for a 204). */
export function successResponse(operation: Operation) {
  const status = Object.keys(operation.responses)
    .map(Number)
    .filter((code) => code >= 200 && code < 300)
    .sort((a, b) => a - b)[0];
  return { status, schema: operation.responses[status]?.schema };
}

/** Everything a caller sends: path parameters, query parameters and the top-level body fields. */
export function inputFields(operation: Operation): ContractField[] {
  return [
    ...(operation.pathParams ? topLevelFields(operation.pathParams, "input") : []).map(
      (field) => ({ ...field, in: "path" }) as const,
    ),
    ...(operation.query ? topLevelFields(operation.query, "input") : []).map(
      (field) => ({ ...field, in: "query" }) as const,
    ),
    ...(operation.body ? topLevelFields(operation.body, "input") : []).map(
      (field) => ({ ...field, in: "body" }) as const,
    ),
  ];
}

/** The top-level fields of the success body. */
export function successFields(operation: Operation): ContractField[] {
  const { schema } = successResponse(operation);
  return schema
    ? topLevelFields(schema, "output").map((field) => ({ ...field, in: "response" }) as const)
    : [];
}
