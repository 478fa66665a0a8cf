import type { z } from "zod";
import { errorEnvelope } from "@/lib/contracts/common";
import type { Operation } from "@/lib/contracts/operation";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors/error-codes";

export type Difference = { path: string; message: string };

export type ContractCheck =
  | { verdict: "pass"; against: string }
  | { verdict: "fail"; against: string; differences: Difference[] }
  /** The catch-all answered: no route exists for this operation yet. */
  | { verdict: "not_implemented" };

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const pathText = (path: PropertyKey[]) => path.map(String).join(".") || "(body)";
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Keys the response carries that the contract does not declare. zod strips them silently when it parses,
 * but an undeclared field in a response is drift all the same.
 */
function undeclaredKeys(schema: z.ZodType, value: unknown, path: PropertyKey[]): Difference[] {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      if (!isPlainObject(value) || !def.shape) return [];
      const open = def.catchall !== undefined && defOf(def.catchall).type !== "never";
      return Object.entries(value).flatMap(([key, item]) => {
        const field = def.shape![key];
        if (field) return undeclaredKeys(field, item, [...path, key]);
        return open ? [] : [{ path: pathText([...path, key]), message: "Not in the contract." }];
      });
    }
    case "array":
      return Array.isArray(value)
        ? value.flatMap((item, index) => undeclaredKeys(def.element!, item, [...path, index]))
        : [];
    case "record":
      return isPlainObject(value)
        ? Object.entries(value).flatMap(([key, item]) => undeclaredKeys(def.valueType!, item, [...path, key]))
        : [];
    case "union": {
      const match = def.options!.find((option) => option.safeParse(value).success);
      return match ? undeclaredKeys(match, value, path) : [];
    }
    case "pipe":
      return undeclaredKeys(def.in!, value, path);
    case "lazy":
      return undeclaredKeys(def.getter!(), value, path);
    default:
      return def.innerType ? undeclaredKeys(def.innerType, value, path) : [];
  }
}

function compare(schema: z.ZodType, body: unknown): Difference[] {
  const parsed = schema.safeParse(body);
  const issues = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: pathText(issue.path), message: issue.message }));
  return [...issues, ...undeclaredKeys(schema, body, [])];
}

/**
 * Whether a response came from the catch-all for unknown /api paths: every implemented operation links its
 * own card from its errors, the catch-all does not.
 */
export function isUnknownRoute(cardId: string, status: number, body: unknown) {
  if (status !== 404 || !isPlainObject(body) || !isPlainObject(body.error)) return false;
  return body.error.docUrl !== `/api-docs/${cardId}#errors`;
}

/**
 * Checks one real response against the operation's contract: a declared status with its schema, or an error
 * envelope whose code is one of the operation's codes and whose HTTP status is the code's.
 */
export function checkResponse(operation: Operation, status: number, body: unknown): ContractCheck {
  if (isUnknownRoute(operation.id, status, body)) return { verdict: "not_implemented" };
  const declared = operation.responses[status];
  let against: string;
  let differences: Difference[];
  if (declared && operation.stream && typeof body === "string") {
    // A streamed answer (NDJSON): every line is one event of the stream's schema.
    against = `each line of the ${status} ${operation.stream.contentType} stream`;
    differences = body
      .split("\n")
      .filter((line) => line.trim())
      .flatMap((line, index) => {
        let event: unknown;
        try {
          event = JSON.parse(line);
        } catch {
          return [{ path: `(line ${index + 1})`, message: "Not JSON." }];
        }
        return compare(operation.stream!.event, event).map((difference) => ({
          ...difference,
          path: `(line ${index + 1}).${difference.path}`,
        }));
      });
  } else if (declared) {
    against = `the ${status} response schema`;
    differences = declared.schema
      ? compare(declared.schema, body)
      : body === null || body === ""
        ? []
        : [{ path: "(body)", message: `A ${status} response has no body.` }];
  } else if (status >= 400) {
    against = "the error envelope";
    differences = compare(errorEnvelope, body);
    const parsed = errorEnvelope.safeParse(body);
    if (parsed.success) {
      const code: ErrorCode = parsed.data.error.code;
      if (!operation.errors.includes(code)) {
        differences.push({
          path: "error.code",
          message: `"${code}" is not one of this operation's error codes (${operation.errors.join(", ")}).`,
        });
      }
      if (ERROR_CODES[code].status !== status) {
        differences.push({
          path: "(status)",
          message: `"${code}" is answered with HTTP ${ERROR_CODES[code].status}, not ${status}.`,
        });
      }
    }
  } else {
    against = "the contract's statuses";
    const statuses = Object.keys(operation.responses).join(", ");
    differences = [
      { path: "(status)", message: `HTTP ${status} is not in the contract (expected ${statuses}).` },
    ];
  }
  return differences.length ? { verdict: "fail", against, differences } : { verdict: "pass", against };
}
