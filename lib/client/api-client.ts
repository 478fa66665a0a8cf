"use client";

import { getSession } from "next-auth/react";
import { ACCESS_TOKEN_REFRESH_WINDOW_MS } from "@/lib/auth/access-token-window";
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
  const session = await getSession();
  cached =
    session?.accessToken && session.accessTokenExpires
      ? { token: session.accessToken, expires: session.accessTokenExpires }
      : null;
  return cached?.token ?? null;
}

export function forgetAccessToken() {
  cached = null;
}

async function toError(response: Response): Promise<ApiClientError> {
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

export type CallInput = {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
};

export type CallResult<T> = { status: number; data: T; headers: Headers };

/** Calls an operation by its contract: the path, method and body shape come from the one definition. */
export async function callApi<T>(operation: Operation, input: CallInput = {}): Promise<CallResult<T>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== "") search.set(key, String(value));
  }
  const url = operationUrl(operation.path, input.params) + (search.size ? `?${search}` : "");
  const headers: Record<string, string> = { ...input.headers };
  if (input.body !== undefined && !(input.body instanceof FormData))
    headers["content-type"] = "application/json";
  const response = await authorizedFetch(url, {
    method: operation.method,
    headers,
    body:
      input.body === undefined
        ? undefined
        : input.body instanceof FormData
          ? input.body
          : JSON.stringify(input.body),
  });
  if (!response.ok && response.status !== 304) throw await toError(response);
  const data = response.status === 204 || response.status === 304 ? null : await response.json();
  return { status: response.status, data: data as T, headers: response.headers };
}

const client = { call: callApi, fetch: authorizedFetch };

/** The browser API client for pages (a hook so pages read it the React way; it holds no React state). */
export function useApiClient() {
  return client;
}
