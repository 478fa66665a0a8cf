import Link from "next/link";
import type { ReactNode } from "react";
import { ErrorNotice } from "@/components/ui/primitives";

/**
 * What a page shows when the thing it is about is not there (or not the visitor's): an optional title, the
 * notice, an optional next step, and one link back to where the visitor can carry on; nothing else of the page.
 * A load that failed for another reason shows the same way, with Retry.
 */
export function NotFoundNotice({
  title,
  message,
  hint,
  href,
  linkLabel,
  onRetry,
}: {
  title?: string;
  message: string;
  hint?: ReactNode;
  href: string;
  linkLabel: string;
  onRetry?: () => void;
}) {
  return (
    <div data-testid="not-found-notice" className="space-y-4">
      {title && <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>}
      <ErrorNotice message={message} onRetry={onRetry} />
      {hint && <p className="text-sm text-slate-600">{hint}</p>}
      <Link href={href} className="inline-block text-sm font-medium text-brand-600 hover:underline">
        {linkLabel}
      </Link>
    </div>
  );
}
