import { inject } from "vitest";

/** The shared test server's base URL (started once in global setup). */
export const baseUrl = () => inject("baseUrl");

export async function api(
  path: string,
  init: RequestInit & { token?: string; json?: unknown; server?: string } = {},
) {
  const { token, json, server, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (json !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(`${server ?? baseUrl()}${path}`, {
    ...rest,
    headers,
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON.
  return { status: response.status, headers: response.headers, body: body as any, text };
}
