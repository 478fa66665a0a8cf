"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { KeyboardEvent } from "react";
import { MethodBadge } from "./method-badge";

export type SidebarGroup = {
  name: string;
  cards: { id: string; title: string; method: string }[];
};

/** Up and Down move between the sidebar's links; Home and End jump to the first and last. */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const keys = ["ArrowDown", "ArrowUp", "Home", "End"];
  if (!keys.includes(event.key)) return;
  const links = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>("a[data-sidebar-link]")];
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next =
    event.key === "Home"
      ? 0
      : event.key === "End"
        ? links.length - 1
        : Math.min(links.length - 1, Math.max(0, index + (event.key === "ArrowDown" ? 1 : -1)));
  event.preventDefault();
  links[next]?.focus();
}

function Links({ groups }: { groups: SidebarGroup[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="API reference" onKeyDown={moveFocus} className="space-y-5 text-sm">
      <Link
        href="/api-docs"
        data-sidebar-link
        aria-current={pathname === "/api-docs" ? "page" : undefined}
        className="block rounded-md px-2 py-1 font-medium text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-700"
      >
        Overview
      </Link>
      {groups.map((group) => (
        <div key={group.name}>
          <p className="px-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.name}</p>
          <ul className="mt-1 space-y-0.5">
            {group.cards.map((card) => {
              const href = `/api-docs/${card.id}`;
              return (
                <li key={card.id}>
                  <Link
                    href={href}
                    data-sidebar-link
                    aria-current={pathname === href ? "page" : undefined}
                    className="flex items-start gap-2 rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 aria-[current=page]:bg-brand-50 aria-[current=page]:font-medium aria-[current=page]:text-brand-700"
                  >
                    <MethodBadge method={card.method} compact />
                    {/* The whole title, on two lines if it must: a cut "Brand preview fra…" names nothing. */}
                    <span className="min-w-0 break-words">{card.title}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/** The reference's left sidebar, grouped by resource; on a phone it folds into "All operations". */
export function DocsSidebar({ groups }: { groups: SidebarGroup[] }) {
  return (
    <>
      <details className="rounded-lg border border-slate-200 bg-white lg:hidden">
        <summary className="cursor-pointer px-4 py-2.5 text-sm font-medium">All operations</summary>
        <div className="border-t border-slate-200 p-3">
          <Links groups={groups} />
        </div>
      </details>
      <div className="sticky top-4 hidden max-h-[calc(100vh-2rem)] overflow-y-auto pr-2 lg:block">
        <Links groups={groups} />
      </div>
    </>
  );
}
