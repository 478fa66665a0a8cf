"use client";

import type { z } from "zod";
import { ACCESS_TOKEN_REFRESH_WINDOW_MS } from "@/lib/auth/access-token-window";
import type { ClientOperation } from "@/lib/client/operations";
import { fetchSession } from "@/lib/client/session";
import type { ErrorEnvelope } from "@/lib/contracts/common";
import { type Operation, operationUrl } from "@/lib/contracts/operation";

/** An error answer from the API, typed from the envelope. */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly requestId?: string,
    readonly details?: unknown,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

let cached: { token: string; expires: number } | null = null;

/** The session's access token, fetched again (and so refreshed by the server) before it runs out. */
export async function getAccessToken({ force = false } = {}): Promise<string | null> {
  if (!force && cached && cached.expires - Date.now() > ACCESS_TOKEN_REFRESH_WINDOW_MS) return cached.token;
  const session = await fetchSession().catch(() => null);
  cached =
    session?.accessToken && session.accessTokenExpires
      ? { token: session.accessToken, expires: session.accessTokenExpires }
      : null;
  return cached?.token ?? null;
}

export function forgetAccessToken() {
  cached = null;
}

export async function toError(response: Response): Promise<ApiClientError> {
  const retryAfter = Number(response.headers.get("retry-after")) || undefined;
  const body = (await response.json().catch(() => null)) as ErrorEnvelope | null;
  if (body?.error) {
    const { code, message, retryable, requestId, details } = body.error;
    return new ApiClientError(response.status, code, message, retryable, requestId, details, retryAfter);
  }
  return new ApiClientError(
    response.status,
    "internal_error",
    `The server answered ${response.status} without an error body.`,
    response.status >= 500,
  );
}

/** fetch with the bearer token; one retry with a fresh token when the first answer is 401. */
export async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const send = async (token: string | null) => {
    const headers = new Headers(init.headers);
    if (token) headers.set("authorization", `Bearer ${token}`);
    return fetch(path, { ...init, headers });
  };
  const response = await send(await getAccessToken());
  if (response.status !== 401) return response;
  return send(await getAccessToken({ force: true }));
}

/** What an operation answers with on success: the union of its success schemas' outputs (null for a bodyless 204/304). */
export type ResponseOf<O extends Operation> = {
  [S in keyof O["responses"]]: O["responses"][S] extends { schema: infer Z extends z.ZodType }
    ? z.output<Z>
    : null;
}[keyof O["responses"]];

/** What an operation takes as its body: the contract's input type (a FormData for uploads). */
export type BodyOf<O extends Operation> = O["body"] extends z.ZodType
  ? O["bodyContentType"] extends "multipart/form-data"
    ? FormData
    : z.input<O["body"]>
  : never;

type ParamsOf<O extends Operation> = O["pathParams"] extends z.ZodObject
  ? Record<keyof z.input<O["pathParams"]>, string>
  : never;

type QueryOf<O extends Operation> = O["query"] extends z.ZodObject
  ? { [K in keyof z.input<O["query"]>]?: string | number | undefined }
  : never;

export type CallInput<O extends Operation> = {
  params?: ParamsOf<O>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

export type CallResult<T> = { status: number; data: T; headers: Headers };

/**
 * Calls an operation by its contract: the path and method come from lib/contracts/routes, the body shape and
 * the answer's type from the zod contract (types only), never from the caller.
 */
export async function callApi<O extends Operation>(
  operation: ClientOperation<O>,
  input: CallInput<O> = {},
): Promise<CallResult<ResponseOf<O>>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== "") search.set(key, String(value));
  }
  const url =
    operationUrl(operation.path, input.params as Record<string, string> | undefined) +
    (search.size ? `?${search}` : "");
  const headers: Record<string, string> = { ...input.headers };
  const body = input.body as unknown;
  if (body !== undefined && !(body instanceof FormData)) headers["content-type"] = "application/json";
  const response = await authorizedFetch(url, {
    method: operation.method,
    headers,
    signal: input.signal,
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  if (!response.ok && response.status !== 304) throw await toError(response);
  const data = response.status === 204 || response.status === 304 ? null : await response.json();
  return { status: response.status, data: data as ResponseOf<O>, headers: response.headers };
}

const client = { call: callApi, fetch: authorizedFetch };

/** The browser API client for pages (a hook so pages read it the React way; it holds no React state). */
export function useApiClient() {
  return client;
}
