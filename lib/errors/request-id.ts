import { newId } from "@/lib/ids";

/**
 * The request header the API gate sets on every /api request it passes on. The gate always overwrites it, so a
 * client cannot choose its own id.
 */
export const REQUEST_ID_HEADER = "x-brand-studio-request-id";

const REQUEST_ID = /^req_[A-Za-z0-9_-]{6,64}$/;

export const requestIdFrom = (value: string | null) => (value && REQUEST_ID.test(value) ? value : undefined);

export const newRequestId = () => newId("req");
