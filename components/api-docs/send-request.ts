export type LiveResponse = {
  status: number;
  ms: number;
  headers: [string, string][];
  /** The parsed JSON body, the raw text when it is not JSON, or null when empty. */
  body: unknown;
};

/** Sends one request to this backend as the test panel does: the real route, the user's bearer token. */
export async function sendRequest({
  method,
  url,
  body,
  token,
}: {
  method: string;
  url: string;
  body?: string;
  token?: string | null;
}): Promise<LiveResponse> {
  const headers = new Headers();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (body !== undefined) headers.set("Content-Type", "application/json");
  const started = performance.now();
  const response = await fetch(url, { method, headers, body, cache: "no-store" });
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
