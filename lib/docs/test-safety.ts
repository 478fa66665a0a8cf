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
    case "create-invitation":
      return `an invitation for ${quote(bodyField(body, "email") ?? "the email in the body")} to the brand {brandId}, with a link that works once (revoke it on the brand's Members page).`;
    case "generate-video":
      return "a new video job in the brand {brandId}; it uses one unit of that brand's monthly quota (given back if the job fails or is canceled).";
    default:
      return "a new resource from the body below; nothing existing changes.";
  }
}

/** What a changing card changes, in words, from its method and test body. */
function changeOf(method: string, cardId: string, body: Json): string {
  if (cardId === "reschedule-publication") {
    return `moves it to ${quote(bodyField(body, "publishAt") ?? "the time in the body")} if it is still scheduled; it then publishes at that time for real, and nothing is sent at the old time.`;
  }
  if (cardId === "replace-channel-schedule") {
    return "replaces its whole weekly posting schedule with the slots in the body; posts already queued keep their times.";
  }
  if (method === "PATCH" && body && typeof body === "object" && !Array.isArray(body)) {
    const fields = Object.entries(body).map(([field, value]) => `${field} → ${quote(value)}`);
    return `sets ${fields.join("; ")}. Other fields keep their values.`;
  }
  switch (cardId) {
    case "revoke-api-key":
      return "revokes it: every script that uses this key gets 401 from then on. This cannot be undone.";
    case "cancel-video-job":
      return "cancels it if it is queued or running (its render stops, its quota unit comes back).";
    case "create-publication":
      return "publishes it for real on the channel {body.channelId}: that channel's audience sees the post, and it cannot be taken back from here.";
    case "disconnect-channel":
      return "disconnects the channel: its stored token is deleted and its scheduled publications are canceled.";
    case "refresh-post-metrics":
      return "reads its results from the platforms again now; the post itself does not change.";
    case "publish-all-languages":
      return "publishes each language version of its group for real on the channels of that language: their audiences see the posts, and it cannot be taken back from here.";
    case "cancel-publication":
      return "cancels it if it is still scheduled; nothing is sent.";
    case "remove-member":
      return "removes that person from the brand: their next request for it answers 404.";
    case "revoke-invitation":
      return "revokes it: the link then says it was revoked. This cannot be undone.";
    case "resend-invitation":
      return "issues a new link for it; the old link stops working.";
    case "accept-invitation":
      return "adds you to the invitation's brand with its role, and uses the link up.";
    case "delete-account":
      return "deletes your account for good: its API keys and sessions stop at once. This cannot be undone.";
    case "upload-avatar":
      return "replaces its avatar image with the uploaded one and starts training again (avatarStatus becomes training).";
    case "upload-logo":
      return "replaces its logo with the uploaded one (the old logo file is removed).";
    case "upload-music":
      return "replaces its music track with the uploaded one (the old track is removed).";
    case "delete-logo":
      return "removes its logo; new videos have none.";
    case "delete-music":
      return "removes its music track; new videos have only the voice.";
    case "generate-media-image":
      return "replaces the image of its media item {index} with a newly generated one.";
    case "upload-media-image":
      return "replaces the image of its media item {index} with the uploaded one.";
    case "delete-media-image":
      return "removes the image of its media item {index}.";
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
  // The resource the path acts on is its last parameter, but an item's position is not one
  // (`/posts/{postId}/media/{index}/image` acts on the post; the developer types the index).
  const param = [...card.endpoint.matchAll(/\{(\w+)\}/g)]
    .map((match) => match[1])
    .filter((name) => name !== "index")
    .at(-1);
  // Any call on an existing resource (a POST under one too) is a change: confirming once too often is the
  // safe side. Only a POST to a collection creates.
  if (!param && card.method === "POST") return { kind: "create", creates: createsOf(card.id, card.testBody) };
  const resource = param ? RESOURCE_OF_PARAM[param] : undefined;
  return { kind: "change", param, resource, change: changeOf(card.method, card.id, card.testBody) };
}
