/**
 * The resource groups of the API: the OpenAPI document's top-level tags and the docs sidebar's sections,
 * in reading order. An operation belongs to the group of its path's first segment after /api/.
 */
export const API_TAGS = [
  {
    name: "Auth",
    description: "Sign-up and API keys. Sign-in itself is next-auth's (`/api/auth/*`); see the README.",
    segments: ["users", "keys"],
  },
  {
    name: "Brands",
    description:
      "Brand profiles: tone, voice, audience, colours, avatar, and the context AI generation uses.",
    segments: ["brands"],
  },
  {
    name: "Posts",
    description: "Generate on-brand social posts from a brief, then read, list and edit them.",
    segments: ["content", "posts"],
  },
  {
    name: "Video",
    description: "Turn a post or a script into a video: create a job, poll its status, list or cancel jobs.",
    segments: ["video"],
  },
  {
    name: "Publishing",
    description:
      "Connect a brand's channels (Telegram) and publish posts to them, now or on a schedule; the calendar reads the publications.",
    segments: ["channels", "publications"],
  },
  {
    name: "Webhooks",
    description: "Signed notifications (Standard Webhooks) when a video job finishes.",
    segments: ["webhooks"],
  },
  {
    name: "System",
    description: "Health of the backend and this OpenAPI document.",
    segments: ["health", "openapi.json"],
  },
] as const;

export type ApiTag = (typeof API_TAGS)[number]["name"];

/** The group of an operation path such as /api/video/jobs/{jobId}; unknown segments land in System. */
export function tagOf(path: string): ApiTag {
  const segment = path.split("/")[2] ?? "";
  return API_TAGS.find((tag) => (tag.segments as readonly string[]).includes(segment))?.name ?? "System";
}
