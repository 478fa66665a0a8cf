import { CopyButton } from "./copy-button";

/** A dark code block with a title bar and, optionally, a copy button. */
export function CodeBlock({
  title,
  code,
  copy = true,
  wrap = false,
  testId,
  field,
}: {
  title: string;
  code: string;
  copy?: boolean;
  /** Wraps long lines (JSON to read) instead of scrolling them (commands to copy). */
  wrap?: boolean;
  testId?: string;
  /** The card field this block shows, for the page's field markers. */
  field?: string;
}) {
  return (
    <figure
      data-testid={testId}
      data-field={field}
      className="overflow-hidden rounded-lg bg-slate-900 text-slate-100 shadow-sm"
    >
      <figcaption className="flex items-center justify-between border-b border-slate-700 px-4 py-2 text-xs text-slate-400">
        <span>{title}</span>
        {copy && <CopyButton text={code} label={`Copy ${title}`} />}
      </figcaption>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block takes keyboard focus so it can be scrolled without a mouse (axe: scrollable-region-focusable).
        tabIndex={0}
        className={`max-h-[24rem] overflow-auto p-4 text-[13px] leading-relaxed ${wrap ? "whitespace-pre-wrap [overflow-wrap:anywhere]" : ""}`}
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}

export const formatJson = (value: unknown) => JSON.stringify(value, null, 2);
