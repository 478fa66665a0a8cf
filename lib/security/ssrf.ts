import dns from "node:dns";
import net from "node:net";
import { getEnv } from "@/lib/config";

/**
 * The SSRF guard for every URL the server fetches on a user's word (webhook targets, scene images, channel
 * pictures): a URL must be http(s), and every address its host resolves to must be public: no loopback,
 * private, link-local (cloud metadata), CGNAT, NAT64, multicast or unspecified address. The check here is
 * the early, worded answer; lib/security/outbound-fetch.ts checks again the address it connects to.
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true (development, tests) turns the address check off.
 */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  // NAT64 (RFC 6052): 64:ff9b::a.b.c.d reaches the IPv4 address a.b.c.d through the gateway.
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(address, prefix, "ipv6");
}

export function isPrivateAddress(address: string) {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped) return blocked.check(mapped[1], "ipv4");
  const family = net.isIPv6(address) ? "ipv6" : "ipv4";
  return blocked.check(address, family);
}

/**
 * True when a URL's host is one a platform on the internet could reach: not localhost, a `.local` name or
 * a private, loopback or link-local address (the list above). A name is not resolved: any dotted name counts.
 */
export function isPublicUrl(value: string | undefined | null): boolean {
  if (!value) return false;
  let host: string;
  try {
    host = new URL(value).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return false;
  if (net.isIP(host)) return !isPrivateAddress(host);
  return host.includes(".");
}

/** How a host name becomes addresses: the system resolver, or (in tests) a stand-in for it. */
export type Resolve = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolve: Resolve = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Whether addresses are checked at all (off in development and tests: WEBHOOK_ALLOW_PRIVATE_TARGETS). */
export const privateTargetsAllowed = () => getEnv().WEBHOOK_ALLOW_PRIVATE_TARGETS;

/** Null when the URL may be fetched; otherwise why not, in words for the user. */
export async function findTargetProblem(raw: string, resolve = systemResolve): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The URL is not a valid absolute URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "The URL must start with https:// or http://.";
  if (url.username || url.password) return "The URL must not carry a user name or password.";
  if (privateTargetsAllowed()) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await resolve(host)).map((a) => a.address);
  } catch {
    return `The host ${host} does not resolve.`;
  }
  if (addresses.length === 0) return `The host ${host} does not resolve.`;
  if (addresses.some(isPrivateAddress)) {
    return "The URL points to a private, loopback or link-local address; the server fetches only from public hosts.";
  }
  return null;
}
