import type { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors/error-codes";
import { PERMISSIONS, type Permission } from "./permissions";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * One API operation's contract. The route handler, the OpenAPI document, the docs card checks and the
 * browser client all read it; nothing restates it.
 */
export type Operation = {
  /** The docs card id: /api-docs/{id}. */
  id: string;
  title: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. /api/posts/{postId}. */
  path: string;
  auth: "bearer" | "none";
  /**
   * The brand permission (lib/contracts/permissions.ts) the caller's role must have, for an operation on one
   * brand or on something of a brand; absent for operations on the caller's own account.
   */
  permission?: Permission;
  summary: string;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** How the body is sent; JSON unless the operation takes a file upload. */
  bodyContentType?: "application/json" | "multipart/form-data";
  /** A multipart upload's largest file, when it is not the avatar's 5 MB (DESIGN §4 "uploads 5 MB"). */
  uploadMaxBytes?: number;
  /** Success responses by HTTP status. A 204 has no schema. */
  responses: Record<number, { description: string; schema?: z.ZodType; headers?: string[] }>;
  errors: ErrorCode[];
  /**
   * A streamed answer of the same operation, chosen with the Accept header: a 200 whose body is one JSON
   * event a line (each event parses with `event`). The JSON answer in `responses` stays the default.
   */
  stream?: { contentType: string; description: string; event: z.ZodType };
};

/** An operation as a contract writes it: `errors` lists only the codes its own rules add (see baselineErrors). */
export type OperationInput = Omit<Operation, "errors"> & { errors?: readonly ErrorCode[] };

const CODE_ORDER = Object.keys(ERROR_CODES) as ErrorCode[];

/**
 * The errors every operation of its kind can answer, so contracts do not restate them: 401 `unauthorized`
 * with a bearer, 404 `not_found` with path parameters (a malformed or someone else's id), 503
 * `service_unavailable` and 403 `forbidden` (a role below the permission's) for an operation on a brand,
 * 500 `internal_error` always.
 */
export function baselineErrors(operation: OperationInput): ErrorCode[] {
  const { auth, pathParams, permission } = operation;
  return [
    ...(auth === "bearer" ? (["unauthorized"] as const) : []),
    ...(pathParams ? (["not_found"] as const) : []),
    ...(permission ? (["service_unavailable"] as const) : []),
    ...(permission && PERMISSIONS[permission] !== "viewer" ? (["forbidden"] as const) : []),
    "internal_error",
  ];
}

/** The operation with its full error list: the baseline and its own, in the order of the ERROR_CODES table. */
export function defineOperation<const O extends OperationInput>(
  operation: O,
): Omit<O, "errors"> & { errors: ErrorCode[] } {
  const codes = new Set<ErrorCode>([...baselineErrors(operation), ...(operation.errors ?? [])]);
  return { ...operation, errors: CODE_ORDER.filter((code) => codes.has(code)) };
}

/** Fills an OpenAPI path template: /api/posts/{postId} + { postId } → /api/posts/pst_… */
export function operationUrl(path: string, params: Record<string, string> = {}) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `{${name}}`));
}
