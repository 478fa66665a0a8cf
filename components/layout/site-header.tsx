"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { useSession } from "@/lib/client/session";

export const NAV_ITEMS = [
  { href: "/studio", label: "Studio" },
  { href: "/brands", label: "Brands" },
  { href: "/videos", label: "Videos" },
  { href: "/calendar", label: "Calendar" },
  { href: "/review", label: "Review" },
  { href: "/api-docs", label: "API docs", public: true },
  { href: "/settings", label: "Settings" },
] as const;

/**
 * The header is a client island: it reads the session in the browser (lib/client/session), so
 * no page has to read cookies on the server just to render it, and the docs pages stay static.
 */
export function SiteHeader() {
  const session = useSession();
  const pathname = usePathname();
  // Signed out, only what a visitor can open: the rest would only send them to sign in.
  const items =
    session.status === "unauthenticated" ? NAV_ITEMS.filter((item) => "public" in item) : NAV_ITEMS;
  const current = items.find((item) => pathname === item.href || pathname.startsWith(`${item.href}/`));
  const currentLink = useRef<HTMLAnchorElement>(null);
  // On a phone the strip scrolls sideways: bring the current page's item into view.
  useEffect(() => {
    if (current) currentLink.current?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [current]);
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-8 gap-y-1 px-4 py-2 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span className="grid size-7 place-items-center rounded-md bg-brand-600 text-sm text-white">B</span>
          Brand Studio
        </Link>
        {/* On a phone the strip scrolls sideways, and fades out at its end to say so. */}
        <div className="order-last -mx-1 w-full overflow-x-auto [mask-image:linear-gradient(to_right,black_85%,transparent)] sm:order-none sm:mx-0 sm:w-auto sm:[mask-image:none]">
          <nav aria-label="Main" className="flex gap-1 pr-8 text-sm sm:pr-0">
            {items.map((item) => (
              <Link
                key={item.href}
                href={item.href}
                ref={item === current ? currentLink : undefined}
                aria-current={item === current ? "page" : undefined}
                className={`whitespace-nowrap rounded-md px-3 py-1.5 hover:bg-slate-100 hover:text-slate-900 ${
                  item === current ? "bg-slate-100 font-medium text-slate-900" : "text-slate-600"
                }`}
              >
                {item.label}
              </Link>
            ))}
          </nav>
        </div>
        <div className="ml-auto flex min-h-8 items-center gap-2 text-sm">
          {session.status === "authenticated" ? (
            <>
              <span data-testid="signed-in-as" className="hidden max-w-56 truncate text-slate-600 sm:inline">
                {session.data.user?.email}
              </span>
              <SignOutButton />
            </>
          ) : session.status === "unauthenticated" ? (
            <Link
              href="/login"
              className="rounded-md bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700"
            >
              Sign in
            </Link>
          ) : null}
        </div>
      </div>
    </header>
  );
}
