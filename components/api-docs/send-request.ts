import { authorizedFetch } from "@/lib/client/api-client";

export type LiveResponse = {
  status: number;
  ms: number;
  headers: [string, string][];
  /** The parsed JSON body, the raw text when it is not JSON, or null when empty. */
  body: unknown;
};

/**
 * Sends one request to this backend as the test panel does: the real route, with the signed-in user's
 * bearer token from the browser API client (none when signed out), and the raw answer kept for display.
 */
export async function sendRequest({
  method,
  url,
  body,
}: {
  method: string;
  url: string;
  /** JSON text, or a form for an upload (the browser sets its multipart Content-Type). */
  body?: string | FormData;
}): Promise<LiveResponse> {
  const headers = typeof body === "string" ? { "Content-Type": "application/json" } : undefined;
  const started = performance.now();
  const response = await authorizedFetch(url, { method, headers, body, cache: "no-store" });
  const text = await response.text();
  const ms = Math.round(performance.now() - started);
  let parsed: unknown = text === "" ? null : text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, ms, headers: [...response.headers.entries()], body: parsed };
}

export const headerOf = (response: LiveResponse, name: string) =>
  response.headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
