import type { ReactNode } from "react";
import { DocsSidebar } from "@/components/api-docs/docs-sidebar";
import { groupCards } from "@/lib/docs/card-groups";
import { loadCards } from "@/lib/docs/load-cards";

/** The API reference: a sidebar of every operation by resource, beside the page. */
export default function ApiDocsLayout({ children }: { children: ReactNode }) {
  const groups = groupCards(loadCards().map(({ card }) => card)).map((group) => ({
    name: group.name,
    cards: group.cards.map((card) => ({ id: card.id, title: card.title, method: card.method })),
  }));
  return (
    <div className="grid gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-8">
      <aside>
        <DocsSidebar groups={groups} />
      </aside>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
