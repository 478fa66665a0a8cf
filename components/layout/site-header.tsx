import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { getSession } from "@/lib/auth/get-session";

export const NAV_ITEMS = [
  { href: "/studio", label: "Studio" },
  { href: "/brands", label: "Brands" },
  { href: "/videos", label: "Videos" },
  { href: "/api-docs", label: "API docs" },
  { href: "/settings", label: "Settings" },
] as const;

export async function SiteHeader() {
  const session = await getSession();
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-8 gap-y-1 px-4 py-2 sm:px-6 md:h-14 md:flex-nowrap md:py-0">
        <Link href="/" className="flex shrink-0 items-center gap-2 font-semibold tracking-tight">
          <span className="grid size-7 place-items-center rounded-md bg-brand-600 text-sm text-white">B</span>
          Brand Studio
        </Link>
        <nav
          aria-label="Main"
          className="order-last -mx-2 flex w-full gap-1 overflow-x-auto text-sm md:order-none md:mx-0 md:w-auto"
        >
          {NAV_ITEMS.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              className="shrink-0 whitespace-nowrap rounded-md px-3 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2 text-sm">
          {session?.user ? (
            <>
              <span data-testid="signed-in-as" className="hidden max-w-56 truncate text-slate-600 sm:inline">
                {session.user.email}
              </span>
              <SignOutButton />
            </>
          ) : (
            <Link
              href="/login"
              className="rounded-md bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700"
            >
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
