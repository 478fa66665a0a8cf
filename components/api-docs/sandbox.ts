import { firstItem } from "@/lib/docs/placeholders";
import { RESOURCE_NOUN, SANDBOX_LABEL, type SandboxResource } from "@/lib/docs/test-safety";
import { type LiveResponse, sendRequest } from "./send-request";

export type Target = { id: string; label: string; sandbox: boolean };

const json = (method: string, url: string, body: unknown) =>
  sendRequest({ method, url, body: JSON.stringify(body) });

function idFrom(response: LiveResponse, field: string, what: string): string {
  const value = (response.body as Record<string, unknown> | null)?.[field];
  if (response.status >= 300 || typeof value !== "string") {
    const message = (response.body as { error?: { message?: string } } | null)?.error?.message;
    throw new Error(`Could not make the sandbox ${what}: ${response.status} ${message ?? ""}`.trim());
  }
  return value;
}

/** The one sandbox brand (found by its name, made once): tone and voice set, so posts and videos work. */
async function sandboxBrand(): Promise<string> {
  const list = await sendRequest({ method: "GET", url: "/api/brands" });
  const items = (list.body as { items?: { brandId: string; name: string }[] } | null)?.items ?? [];
  const existing = items.find((brand) => brand.name === SANDBOX_LABEL);
  if (existing) return existing.brandId;
  const created = await json("POST", "/api/brands", {
    name: SANDBOX_LABEL,
    tone: "plain, friendly and clear",
    voice: "Short sentences written only to try the API from its docs.",
    audience: "Developers reading the API docs",
  });
  return idFrom(created, "brandId", "brand");
}

/** The sandbox brand's newest post, or a new one. */
async function sandboxPost(): Promise<string> {
  const brandId = await sandboxBrand();
  const list = await sendRequest({ method: "GET", url: `/api/posts?brandId=${brandId}&limit=1` });
  const existing = firstItem(list.body)?.postId;
  if (typeof existing === "string") return existing;
  const created = await json("POST", "/api/content/create", {
    brandId,
    channel: "linkedin",
    topic: "A sandbox post the API docs test panel made for trying requests",
    goal: "awareness",
  });
  return idFrom(created, "postId", "post");
}

/** A new job in the sandbox brand, still queued: something a cancel can act on. */
async function sandboxJob(): Promise<string> {
  const brandId = await sandboxBrand();
  const created = await json("POST", "/api/video/jobs", {
    brandId,
    script: "This sandbox video was made by the API docs test panel to try a request.",
    mode: "regular",
  });
  return idFrom(created, "jobId", "video job");
}

/** A new key named after the sandbox: revoking it removes nothing anyone uses. */
async function sandboxKey(): Promise<string> {
  return idFrom(await json("POST", "/api/keys", { name: SANDBOX_LABEL }), "keyId", "API key");
}

const MAKERS: Record<SandboxResource, () => Promise<string>> = {
  brand: sandboxBrand,
  post: sandboxPost,
  job: sandboxJob,
  key: sandboxKey,
};

/** Makes (or finds) the sandbox resource of a kind. */
export async function makeSandbox(resource: SandboxResource): Promise<Target> {
  const id = await MAKERS[resource]();
  return { id, label: `${RESOURCE_NOUN[resource]} “${SANDBOX_LABEL}” (${id})`, sandbox: true };
}

/** Names a resource the user typed, by reading it, so the confirmation says exactly what will change. */
export async function describeTarget(resource: SandboxResource | undefined, id: string): Promise<Target> {
  const noun = resource ? RESOURCE_NOUN[resource] : "resource";
  const unknown = {
    id,
    label: `${noun} ${id} (not found or not yours: the request will answer 404)`,
    sandbox: false,
  };
  if (!resource) return { id, label: `${noun} ${id}`, sandbox: false };
  try {
    if (resource === "key") {
      const list = await sendRequest({ method: "GET", url: "/api/keys" });
      const items = (list.body as { items?: { keyId: string; name: string; hint: string }[] } | null)?.items;
      const key = items?.find((item) => item.keyId === id);
      return key
        ? { id, label: `API key “${key.name}” (${key.hint}, ${id})`, sandbox: key.name === SANDBOX_LABEL }
        : unknown;
    }
    const url = {
      brand: `/api/brands/${encodeURIComponent(id)}`,
      post: `/api/posts/${encodeURIComponent(id)}`,
      job: `/api/video/jobs/${encodeURIComponent(id)}`,
    }[resource];
    const response = await sendRequest({ method: "GET", url });
    if (response.status !== 200) return unknown;
    const body = response.body as Record<string, unknown>;
    if (resource === "brand") {
      return { id, label: `brand “${body.name}” (${id})`, sandbox: body.name === SANDBOX_LABEL };
    }
    if (resource === "post") {
      const caption = String(body.caption ?? "");
      return {
        id,
        label: `${body.channel} post “${caption.length > 60 ? `${caption.slice(0, 57)}…` : caption}” (${id})`,
        sandbox: false,
      };
    }
    return { id, label: `video job ${id} (${body.status}, ${body.progress}% done)`, sandbox: false };
  } catch {
    return unknown;
  }
}
