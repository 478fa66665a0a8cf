"use client";

import { type KeyboardEvent, useId, useState } from "react";
import { CopyButton } from "./copy-button";

export type CodeTab = { key: string; label: string; code: string; field?: string };

/**
 * Request examples in tabs (curl, fetch, typed client), each with a copy button. Arrow keys move between
 * tabs, as in any ARIA tab list. Every panel stays in the page (hidden when not selected), so the card's
 * fields are all there for search and tests.
 */
export function CodeTabs({ tabs, title }: { tabs: CodeTab[]; title: string }) {
  const [selected, setSelected] = useState(tabs[0]?.key);
  const id = useId();
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length];
    setSelected(next.key);
    document.getElementById(`${id}-tab-${next.key}`)?.focus();
  };
  return (
    <figure className="overflow-hidden rounded-xl bg-slate-900 text-slate-100 shadow-sm">
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-700 px-2">
        <div role="tablist" aria-label={title} className="flex">
          {tabs.map((tab, index) => (
            <button
              key={tab.key}
              id={`${id}-tab-${tab.key}`}
              type="button"
              role="tab"
              aria-selected={selected === tab.key}
              aria-controls={`${id}-panel-${tab.key}`}
              tabIndex={selected === tab.key ? 0 : -1}
              onClick={() => setSelected(tab.key)}
              onKeyDown={(event) => move(event, index)}
              className={`border-b-2 px-3 py-2 text-xs font-medium ${
                selected === tab.key
                  ? "border-brand-400 text-white"
                  : "border-transparent text-slate-400 hover:text-slate-200"
              }`}
            >
              {tab.label}
            </button>
          ))}
        </div>
        {tabs
          .filter((tab) => tab.key === selected)
          .map((tab) => (
            <CopyButton key={tab.key} text={tab.code} label={`Copy ${tab.label}`} />
          ))}
      </figcaption>
      {tabs.map((tab) => (
        <div
          key={tab.key}
          id={`${id}-panel-${tab.key}`}
          role="tabpanel"
          aria-labelledby={`${id}-tab-${tab.key}`}
          hidden={selected !== tab.key}
          data-field={tab.field}
          data-testid={`snippet-${tab.key}`}
        >
          <pre
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block takes keyboard focus so it can be scrolled without a mouse (axe: scrollable-region-focusable).
            tabIndex={0}
            // Long lines wrap at a space (never cut at the column's edge); Copy still copies the lines as written.
            className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words p-4 text-[12.5px] leading-relaxed"
          >
            <code>{tab.code}</code>
          </pre>
        </div>
      ))}
    </figure>
  );
}
