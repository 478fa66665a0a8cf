import Link from "next/link";
import { buttonClass } from "@/components/ui/primitives";

export const metadata = { title: "Page not found" };
export const dynamic = "force-dynamic";

/**
 * Every unknown address, and every notFound(). Rendered per request like the other pages, so Next puts the
 * proxy's CSP nonce on its inline scripts: prerendered (Next's default `_not-found`), they were blocked and the
 * page and its header never hydrated. Not connection() or headers(): Next renders the root not-found into every
 * page's payload, and the prerendered API docs (`dynamic = "error"`) would fail the build.
 */
export default function NotFound() {
  return (
    <section className="mx-auto max-w-xl space-y-4 py-8 text-center sm:py-16">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="text-balance text-slate-600">
        There is nothing at this address: the link may be mistyped or out of date.
      </p>
      <div className="flex flex-col justify-center gap-3 pt-2 sm:flex-row">
        <Link href="/brands" className={buttonClass("primary")}>
          Go to your brands
        </Link>
        <Link href="/" className={buttonClass("secondary")}>
          Home page
        </Link>
      </div>
    </section>
  );
}
