import { AVATAR_UPLOAD } from "@/lib/contracts/brands";
import { operations } from "@/lib/contracts/index";
import type { Operation } from "@/lib/contracts/operation";
import { JSON_BODY_LIMIT_BYTES } from "./read-body";

/** Room for the multipart boundaries and part headers around an upload of the maximum size. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

type Route = {
  pattern: RegExp;
  methods: Set<string>;
  /** Largest body any method of this path accepts, in bytes. */
  bodyLimit: Map<string, number>;
};

/** Paths served by route handlers that are not API operations with a card. */
const EXTRA_ROUTES: { path: string; methods: string[] }[] = [
  { path: "/api/openapi.json", methods: ["GET"] },
  // Prometheus metrics for operators (docs/observability.md), behind METRICS_TOKEN.
  { path: "/api/metrics", methods: ["GET"] },
  // next-auth: sign-in pages, callbacks, session and CSRF endpoints.
  { path: "/api/auth/{...nextauth}", methods: ["GET", "POST"] },
  // Hosted video providers' callbacks (hints only: the worker confirms with a status GET).
  { path: "/api/webhooks/providers/{provider}", methods: ["POST"] },
  // Telegram's updates (reaction counts) for a channel connection, checked by its secret header.
  { path: "/api/webhooks/telegram/{channelId}", methods: ["POST"] },
  // OAuth channel connections: the brand page's POST (the authorize URL, same-origin only) and browser
  // navigations (the platform's 303 back to the brand's settings), not operations with a card;
  // docs/contract-notes.md describes them.
  { path: "/api/channels/oauth/{channel}/start", methods: ["GET", "POST"] },
  { path: "/api/channels/oauth/{channel}/callback", methods: ["GET"] },
  // LinkedIn with company pages: what the consent found, and the owner's choice of accounts to add.
  { path: "/api/channels/oauth/{channel}/choice", methods: ["GET", "POST"] },
];

const bodyLimitOf = (operation: Operation) =>
  operation.bodyContentType === "multipart/form-data"
    ? (operation.uploadMaxBytes ?? AVATAR_UPLOAD.maxBytes) + MULTIPART_OVERHEAD_BYTES
    : JSON_BODY_LIMIT_BYTES;

function patternOf(template: string) {
  const source = template
    .split("/")
    .map((segment) => {
      if (segment.startsWith("{...")) return ".+";
      if (segment.startsWith("{")) return "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}$`);
}

function buildRoutes(): Route[] {
  const byPath = new Map<string, Route>();
  const routeFor = (path: string) => {
    let route = byPath.get(path);
    if (!route) {
      route = { pattern: patternOf(path), methods: new Set(), bodyLimit: new Map() };
      byPath.set(path, route);
    }
    return route;
  };
  for (const operation of operations) {
    const route = routeFor(operation.path);
    route.methods.add(operation.method);
    if (operation.body) route.bodyLimit.set(operation.method, bodyLimitOf(operation));
  }
  for (const extra of EXTRA_ROUTES) {
    const route = routeFor(extra.path);
    for (const method of extra.methods) {
      route.methods.add(method);
      route.bodyLimit.set(method, JSON_BODY_LIMIT_BYTES);
    }
  }
  return [...byPath.values()];
}

let routes: Route[] | undefined;

/**
 * What the API serves at a path, from the operation registry (the same list OpenAPI and the cards use):
 * the methods it allows (HEAD with GET, OPTIONS always) and each method's body limit. Undefined when no
 * route serves the path.
 */
export function apiRouteFor(pathname: string) {
  routes ??= buildRoutes();
  const matching = routes.filter((route) => route.pattern.test(pathname));
  if (matching.length === 0) return undefined;
  const methods = new Set<string>();
  const bodyLimit = new Map<string, number>();
  for (const route of matching) {
    for (const method of route.methods) methods.add(method);
    for (const [method, limit] of route.bodyLimit) bodyLimit.set(method, limit);
  }
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  const allow = order.filter((method) => methods.has(method));
  return {
    allow,
    /** The body limit of a method that takes a body; undefined for one that reads none. */
    bodyLimit: (method: string) => bodyLimit.get(method),
  };
}
