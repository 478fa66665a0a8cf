/** The card format's value lists, with no zod: card-schema.ts builds on them and the docs index filters by them. */

export const TODO = "TODO";

export const CARD_METHODS = ["GET", "POST", "PATCH", "DELETE"] as const;
export const CARD_STATUSES = ["draft", "ready", "deprecated"] as const;
export const CARD_OWNERS = ["AI", "backend", "frontend"] as const;
