import type { Metadata } from "next";
import { CardIndex } from "@/components/api-docs/card-index";
import { groupCards } from "@/lib/docs/card-groups";
import { loadCards } from "@/lib/docs/load-cards";

export const metadata: Metadata = { title: "API docs" };

// Prerendered at build time; anything that would make the page per-request (cookies, headers) fails the build.
export const dynamic = "error";

export default function ApiDocsIndexPage() {
  // By resource (Auth, Brands, Posts, Video, System); inside a resource by path, then GET, POST, PATCH, DELETE.
  const groups = groupCards(loadCards().map(({ card }) => card));
  const cards = groups.flatMap((group) => group.cards.map((card) => ({ ...card, group: group.name })));
  const summaries = cards.map((card) => ({
    id: card.id,
    title: card.title,
    method: card.method,
    endpoint: card.endpoint,
    status: card.status,
    owner: card.owner,
    description: card.description,
    group: card.group,
  }));
  return (
    <div className="space-y-8">
      <header className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight">API reference</h1>
        <p className="max-w-3xl text-slate-600">
          One card per operation: what to send, what comes back, every error and how to handle it. Each card
          has a test panel that calls this backend with your own session and checks the answer against the
          contract. Send{" "}
          <code className="rounded bg-slate-100 px-1 font-mono text-sm">
            Authorization: Bearer &lt;token&gt;
          </code>{" "}
          on every call except the public ones.
        </p>
        <p className="text-sm">
          <a href="/api/openapi.json" className="font-medium text-brand-600 hover:underline">
            OpenAPI 3.1 document
          </a>{" "}
          <span className="text-slate-500">— generated from the same zod contracts the routes use.</span>
        </p>
      </header>
      <CardIndex cards={summaries} />
    </div>
  );
}
