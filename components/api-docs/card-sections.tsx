import type { ReactNode } from "react";
import { ERROR_CODES, type ErrorCode } from "@/lib/api/error-codes";
import { type Card, errorEntries, fieldEntries, isTodo } from "@/lib/docs/card-schema";
import { TodoMark } from "./method-badge";

/** One of the card's 19 fields, marked so the page (and its tests) can find each. */
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
  return (
    <section id={id} data-field={field} className="scroll-mt-6">
      <h2 className="mb-2 flex items-baseline gap-2 text-base font-semibold text-slate-900">
        {title}
        <code className="font-mono text-xs font-normal text-slate-400">{field}</code>
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

const tableClass = "w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-left text-sm";
const headClass = "bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500";

export function FieldTable({ list, empty }: { list: Card["input"]; empty: string }) {
  if (isTodo(list)) return <TodoMark />;
  const rows = fieldEntries(list);
  if (rows.length === 0) return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    <table className={tableClass}>
      <thead className={headClass}>
        <tr>
          <th className="px-3 py-2">Field</th>
          <th className="px-3 py-2">Type</th>
          <th className="px-3 py-2">Description</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr key={row.name} className="align-top">
            <td className="whitespace-nowrap px-3 py-2 font-mono text-[13px] font-medium">
              {row.name}
              {row.optional && <span className="ml-1 text-xs font-normal text-slate-400">optional</span>}
            </td>
            <td className="px-3 py-2 font-mono text-[13px] text-slate-600">{row.type}</td>
            <td className="px-3 py-2 text-slate-700">
              <InlineText text={row.description} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ErrorTable({ list }: { list: Card["errors"] }) {
  if (isTodo(list)) return <TodoMark />;
  return (
    <table className={tableClass}>
      <thead className={headClass}>
        <tr>
          <th className="px-3 py-2">Code</th>
          <th className="px-3 py-2">HTTP</th>
          <th className="px-3 py-2">When</th>
          <th className="px-3 py-2">Retryable</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {errorEntries(list).map((row) => (
          <tr key={row.code} id={`error-${row.code}`} className="align-top">
            <td className="whitespace-nowrap px-3 py-2 font-mono text-[13px] font-medium">{row.code}</td>
            <td className="px-3 py-2 font-mono text-[13px] text-slate-600">
              {ERROR_CODES[row.code as ErrorCode]?.status ?? "?"}
            </td>
            <td className="px-3 py-2 text-slate-700">
              <InlineText text={row.condition} />
            </td>
            <td className="px-3 py-2">
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${
                  row.retryable ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-600"
                }`}
              >
                {row.retryable ? "yes" : "no"}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
