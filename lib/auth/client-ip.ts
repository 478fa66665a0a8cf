import { getEnv } from "@/lib/config";

/**
 * The request header the HTTP server stamps with the socket's peer address before Next sees the request
 * (lib/server/http-guard.ts); it overwrites whatever a client sent under that name.
 */
export const PEER_HEADER = "x-brand-studio-peer";

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/**
 * The client's IP address for throttling. By default the socket's peer: X-Forwarded-For is ignored, since
 * any client can send it. Behind N trusted reverse proxies (TRUST_PROXY_HOPS=N), each appends the address it
 * saw, so the client is the N-th entry from the end of X-Forwarded-For.
 */
export function clientIp(headers: HeaderSource): string {
  const peer = header(headers, PEER_HEADER) ?? "unknown";
  const hops = getEnv().TRUST_PROXY_HOPS;
  if (hops === 0) return peer;
  const chain = (header(headers, "x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return chain[chain.length - hops] ?? peer;
}
