/**
 * Placeholders in a card's testPath and testBody (`{brandId}`) and where the test panel finds a value for
 * each: the newest item of a list operation, read with the signed-in user's token. Unknown placeholders are
 * left for the developer to type.
 */
export type PlaceholderSource = {
  /** The list operation (a registry id) whose first item supplies the value. */
  listOperation: string;
  /** Placeholders the list needs first, passed as query parameters. */
  needs?: string[];
  /** The item's field that holds the value. */
  field: string;
};

export const PLACEHOLDER_SOURCES: Record<string, PlaceholderSource> = {
  brandId: { listOperation: "list-brands", field: "brandId" },
  postId: { listOperation: "list-posts", needs: ["brandId"], field: "postId" },
  jobId: { listOperation: "list-video-jobs", needs: ["brandId"], field: "jobId" },
  keyId: { listOperation: "list-api-keys", field: "keyId" },
  webhookId: { listOperation: "list-webhooks", field: "webhookId" },
  userId: { listOperation: "list-members", needs: ["brandId"], field: "userId" },
  invitationId: { listOperation: "list-invitations", needs: ["brandId"], field: "invitationId" },
  // channelId and publicationId are never filled: a publish, disconnect or cancel names what the developer typed.
};

/** `{nonce}` is a fresh random string, for bodies that must be unique (a sign-up email). */
export const NONCE = "nonce";

export const newNonce = () => Math.random().toString(36).slice(2, 10);

/** Fills `{name}` in a path, URL-encoding each value. */
export function fillPath(template: string, values: Record<string, string>) {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] ? encodeURIComponent(values[name]) : whole,
  );
}

/** Fills `{name}` inside the JSON text of a body, escaping each value as JSON string content. */
export function fillJson(text: string, values: Record<string, string>) {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : JSON.stringify(values[name]).slice(1, -1),
  );
}

/** The first item of a list response: `{ items: [...] }` or a bare array. */
export function firstItem(data: unknown): Record<string, unknown> | undefined {
  const list = Array.isArray(data) ? data : (data as { items?: unknown } | null)?.items;
  return Array.isArray(list) ? (list[0] as Record<string, unknown> | undefined) : undefined;
}
