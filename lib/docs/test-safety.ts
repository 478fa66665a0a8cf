/**
 * What pressing Send on a card's test panel does to the caller's data, so the panel never changes existing
 * data by surprise (DESIGN §6):
 * - `read`: runs at once.
 * - `create`: runs at once and says beforehand what it creates.
 * - `change`: changes or removes an existing resource. The panel never fills in one of the user's own; it
 *   offers a sandbox resource made for the test, and sends only after a confirmation naming the target and
 *   the change.
 */

export type SandboxResource = "brand" | "post" | "job" | "key";

export type TestSafety =
  | { kind: "read" }
  | { kind: "create"; creates: string }
  /** `resource` is set when the panel knows how to make a sandbox of it; otherwise the user types an id. */
  | { kind: "change"; param?: string; resource?: SandboxResource; change: string };

/** The label of every resource the panel creates for a test. */
export const SANDBOX_LABEL = "Sandbox — API docs test";

const RESOURCE_OF_PARAM: Record<string, SandboxResource> = {
  brandId: "brand",
  postId: "post",
  jobId: "job",
  keyId: "key",
};

export const RESOURCE_NOUN: Record<SandboxResource, string> = {
  brand: "brand",
  post: "post",
  job: "video job",
  key: "API key",
};

/** How the sandbox of each kind is cleaned up, as far as the API allows. */
export const SANDBOX_CLEANUP: Record<SandboxResource, string> = {
  brand:
    "The API has no delete for brands, so the panel keeps one sandbox brand and reuses it for every test.",
  post: "The API has no delete for posts, so the panel keeps one sandbox post (in the sandbox brand) and reuses it.",
  job: "The sandbox job is made for this test (in the sandbox brand); canceling it gives its quota unit back.",
  key: "The sandbox key is made for this test; revoking it is the clean-up.",
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const quote = (value: Json) => {
  const text = typeof value === "string" ? `“${value}”` : JSON.stringify(value);
  return text.length > 90 ? `${text.slice(0, 87)}…` : text;
};

const bodyField = (body: Json, name: string) =>
  body && typeof body === "object" && !Array.isArray(body) ? body[name] : undefined;

/** What a creating card creates, in words, from its test body. */
function createsOf(cardId: string, body: Json): string {
  const name = bodyField(body, "name");
  switch (cardId) {
    case "sign-up":
      return `a new user account for ${quote(bodyField(body, "email") ?? "the email in the body")}.`;
    case "create-api-key":
      return `a new API key named ${quote(name ?? "")} (revoke it in Settings or with Revoke API key).`;
    case "create-brand":
      return `a new brand named ${quote(name ?? "")}, with you as its owner.`;
    case "generate-post":
      return "a new draft post in the brand {brandId}; nothing existing changes.";
    case "generate-video":
      return "a new video job in the brand {brandId}; it uses one unit of that brand's monthly quota (given back if the job fails or is canceled).";
    default:
      return "a new resource from the body below; nothing existing changes.";
  }
}

/** What a changing card changes, in words, from its method and test body. */
function changeOf(method: string, cardId: string, body: Json): string {
  if (method === "PATCH" && body && typeof body === "object" && !Array.isArray(body)) {
    const fields = Object.entries(body).map(([field, value]) => `${field} → ${quote(value)}`);
    return `sets ${fields.join("; ")}. Other fields keep their values.`;
  }
  switch (cardId) {
    case "revoke-api-key":
      return "revokes it: every script that uses this key gets 401 from then on. This cannot be undone.";
    case "cancel-video-job":
      return "cancels it if it is queued or running (its render stops, its quota unit comes back).";
    case "upload-avatar":
      return "replaces its avatar image with the uploaded one and starts training again (avatarStatus becomes training).";
    default:
      return method === "DELETE" ? "removes it." : "changes it with the body below.";
  }
}

/**
 * The safety class of a card: GET reads; PATCH, DELETE and a POST to an existing resource (a path
 * parameter such as /brands/{brandId}/avatar) change; any other POST creates.
 */
export function testSafetyOf(card: {
  id: string;
  method: string;
  endpoint: string;
  testBody: Json;
}): TestSafety {
  if (card.method === "GET") return { kind: "read" };
  const param = [...card.endpoint.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).at(-1);
  const resource = param ? RESOURCE_OF_PARAM[param] : undefined;
  // A POST under an existing resource is treated as a change too: confirming once too often is the safe side.
  if (param && resource) {
    return { kind: "change", param, resource, change: changeOf(card.method, card.id, card.testBody) };
  }
  if (card.method === "POST") return { kind: "create", creates: createsOf(card.id, card.testBody) };
  return { kind: "change", param, change: changeOf(card.method, card.id, card.testBody) };
}
