import { API_TAGS, tagOf } from "@/lib/openapi/tags";
import type { Card } from "./card-schema";

const METHOD_ORDER = ["GET", "POST", "PATCH", "DELETE"];

/**
 * Cards grouped by resource (the OpenAPI tags: Auth, Brands, Posts, Video, System), in the tags' order;
 * inside a group by path, then GET, POST, PATCH, DELETE.
 */
export function groupCards<C extends Pick<Card, "endpoint" | "method">>(cards: C[]) {
  const sorted = [...cards].sort(
    (a, b) =>
      a.endpoint.localeCompare(b.endpoint) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
  return API_TAGS.map((tag) => ({
    name: tag.name as string,
    description: tag.description as string,
    cards: sorted.filter((card) => tagOf(card.endpoint) === tag.name),
  })).filter((group) => group.cards.length > 0);
}
