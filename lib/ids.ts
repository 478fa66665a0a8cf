import { randomBytes } from "node:crypto";

export type IdPrefix =
  | "usr"
  | "brd"
  | "pst"
  | "vjb"
  | "key"
  | "req"
  | "whk"
  | "msg"
  | "chn"
  | "pub"
  | "inv"
  | "act";

/** Prefixed opaque ids (`brd_…`): 128 random bits, URL-safe. */
export function newId(prefix: IdPrefix) {
  return `${prefix}_${randomBytes(16).toString("base64url")}`;
}
