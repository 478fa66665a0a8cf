import "server-only";
import type dns from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, type Dispatcher, fetch as undiciFetch } from "undici";
import {
  findTargetProblem,
  isPrivateAddress,
  privateTargetsAllowed,
  type Resolve,
  systemResolve,
} from "./ssrf";

/** Thrown when the address a connection would use is not public: the request is never sent. */
export class PrivateAddressError extends Error {
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, a private, loopback or link-local address.`);
    this.name = "PrivateAddressError";
  }
}

/**
 * A `lookup` for net/tls.connect that resolves once and refuses when any address is private: the address
 * the connection uses is the one checked (no second resolution that DNS rebinding could answer
 * differently). WEBHOOK_ALLOW_PRIVATE_TARGETS turns the check off, as it does the guard's.
 */
export function checkedLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = found.filter((entry) => !wanted || entry.family === wanted);
        if (addresses.length === 0) {
          const error = Object.assign(new Error(`${hostname} does not resolve.`), { code: "ENOTFOUND" });
          return callback(error, "", 0);
        }
        const blocked = privateTargetsAllowed()
          ? undefined
          : addresses.find((entry) => isPrivateAddress(entry.address));
        if (blocked) return callback(new PrivateAddressError(hostname, blocked.address), "", 0);
        if (options.all)
          return (callback as (error: null, all: dns.LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error) => callback(error, "", 0),
    );
  };
}

/** A dispatcher whose every connection goes through `checkedLookup`. */
export const pinnedDispatcher = (resolve?: Resolve): Dispatcher =>
  new Agent({ connect: { lookup: checkedLookup(resolve) } });

const globalForAgent = globalThis as unknown as { brandStudioPinnedAgent?: Dispatcher };
const sharedDispatcher = () => {
  globalForAgent.brandStudioPinnedAgent ??= pinnedDispatcher();
  return globalForAgent.brandStudioPinnedAgent;
};

const MAX_REDIRECTS = 3;

export type GuardedInit = Omit<NonNullable<Parameters<typeof undiciFetch>[1]>, "dispatcher" | "redirect"> & {
  /** "manual" hands a redirect back; "error" refuses one; "follow" (up to 3) checks each hop first. */
  redirect?: "manual" | "error" | "follow";
  /** Tests only: resolve host names with this instead of the system resolver. */
  resolve?: Resolve;
};

/**
 * fetch for URLs a user gave us: the guard's check first (a worded error for an IP literal, a bad scheme or a
 * private host), then the request on a connection to the checked address only (DNS rebinding and NAT64
 * answers are refused at connect time). Redirects are followed only on request, each hop checked again.
 */
export async function guardedFetch(url: string, init: GuardedInit = {}) {
  const { resolve, redirect = "error", ...rest } = init;
  const dispatcher = resolve ? pinnedDispatcher(resolve) : sharedDispatcher();
  let target = url;
  for (let hop = 0; ; hop++) {
    const problem = await findTargetProblem(target, resolve);
    if (problem) throw new Error(problem);
    const response = await undiciFetch(target, { ...rest, dispatcher, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location || redirect === "manual")
      return response;
    await response.body?.cancel().catch(() => {});
    if (redirect === "error" || hop >= MAX_REDIRECTS) {
      throw new Error(`it redirected (HTTP ${response.status}) and redirects are not followed`);
    }
    target = new URL(location, target).toString();
  }
}
