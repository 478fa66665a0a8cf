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

const ID_BYTES = 16;
/** Random bytes for this many ids are drawn at once (as crypto.randomUUID does): one call per id cost more. */
const POOL_IDS = 128;
let pool = Buffer.alloc(0);
let offset = 0;

/** Prefixed opaque ids (`brd_…`): 128 random bits, URL-safe. */
export function newId(prefix: IdPrefix) {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `${prefix}_${id}`;
}
