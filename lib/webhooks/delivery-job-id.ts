import { createHash } from "node:crypto";

/**
 * The queue job id of a webhook delivery: the same for every send of it (a UUID made from its id), so
 * queuing it again while its job exists is a no-op (pg-boss inserts jobs `on conflict do nothing`).
 */
export function deliveryJobId(deliveryId: string) {
  const hex = createHash("sha256").update(`webhook-delivery:${deliveryId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
