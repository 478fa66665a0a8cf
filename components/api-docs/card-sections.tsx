import type { ReactNode } from "react";
import { type Card, errorEntries, fieldEntries, isTodo } from "@/lib/docs/card-schema";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors/error-codes";
import { TodoMark } from "./method-badge";

/**
 * One of the card's 19 fields, marked so the page (and its tests) can find each, under a heading a reader
 * can link to (`#input`, `#errors`).
 */
export function FieldSection({
  field,
  title,
  id,
  children,
}: {
  field: keyof Card;
  title: string;
  id?: string;
  children: ReactNode;
}) {
  const anchor = id ?? field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return (
    <section id={anchor} data-field={field} className="scroll-mt-6">
      <h2 className="group mb-3 flex items-baseline gap-2 text-lg font-semibold text-slate-900">
        {title}
        <a
          href={`#${anchor}`}
          aria-label={`Link to ${title}`}
          className="text-sm font-normal text-slate-300 opacity-0 hover:text-brand-600 focus:opacity-100 group-hover:opacity-100"
        >
          #
        </a>
      </h2>
      {children}
    </section>
  );
}

/** Card text with `code spans` set in monospace, as the card authors write them. */
export function InlineText({ text }: { text: string }) {
  return text.split(/`([^`]+)`/).map((part, index) =>
    index % 2 ? (
      <code key={index} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] text-slate-800">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

export function BulletList({ items }: { items: string[] | "TODO" }) {
  if (isTodo(items)) return <TodoMark />;
  return (
    <ul className="list-disc space-y-1.5 pl-5 text-sm leading-relaxed text-slate-700">
      {items.map((item, index) => (
        <li key={index}>
          <InlineText text={item} />
        </li>
      ))}
    </ul>
  );
}

/** `input` or `success` as a list of fields, Stripe-style: name, type and a note, then the description. */
export function FieldTable({ list, empty }: { list: Card["input"]; empty: string }) {
  if (isTodo(list)) return <TodoMark />;
  const rows = fieldEntries(list);
  if (rows.length === 0) return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    <dl className="divide-y divide-slate-200 border-y border-slate-200">
      {rows.map((row) => (
        <div key={row.name} className="py-3">
          <dt className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-mono text-[13px] font-semibold text-slate-900">{row.name}</span>
            <span className="font-mono text-xs text-slate-500">{row.type}</span>
            {row.optional ? (
              <span className="text-xs text-slate-600">optional</span>
            ) : (
              <span className="text-xs font-medium text-amber-700">required</span>
            )}
          </dt>
          <dd className="mt-1 text-sm leading-relaxed text-slate-700">
            <InlineText text={row.description} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The `errors` list: code, HTTP status and whether a retry may help, then when it happens. */
export function ErrorTable({ list }: { list: Card["errors"] }) {
  if (isTodo(list)) return <TodoMark />;
  return (
    <dl className="divide-y divide-slate-200 border-y border-slate-200">
      {errorEntries(list).map((row) => (
        <div key={row.code} id={`error-${row.code}`} className="scroll-mt-6 py-3">
          <dt className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs font-semibold text-slate-600">
              {ERROR_CODES[row.code as ErrorCode]?.status ?? "?"}
            </span>
            <span className="font-mono text-[13px] font-semibold text-slate-900">{row.code}</span>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${
                row.retryable ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-600"
              }`}
            >
              {row.retryable ? "retryable" : "not retryable"}
            </span>
          </dt>
          <dd className="mt-1 text-sm leading-relaxed text-slate-700">
            <InlineText text={row.condition} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
