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
        <ul data-testid="api-rules" className="max-w-3xl list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li>
            Methods: <code className="font-mono">GET</code> reads, <code className="font-mono">POST</code>{" "}
            creates or starts work, <code className="font-mono">PATCH</code> changes only the fields sent,{" "}
            <code className="font-mono">DELETE</code> removes or cancels.
          </li>
          <li>
            Rate limits: <code className="font-mono">X-RateLimit-Reset</code> is a Unix time in seconds (when
            the window resets); <code className="font-mono">Retry-After</code> is a number of seconds to wait.
          </li>
          <li>
            The test panel never changes your data by surprise: a card that changes or removes something runs
            on a sandbox resource, or on one you name, and only after you confirm.
          </li>
        </ul>
      </header>
      <CardIndex cards={summaries} />
    </div>
  );
}
