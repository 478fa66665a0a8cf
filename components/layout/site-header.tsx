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
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-8 px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span className="grid size-7 place-items-center rounded-md bg-brand-600 text-sm text-white">B</span>
          Brand Studio
        </Link>
        <nav aria-label="Main" className="flex gap-1 text-sm">
          {NAV_ITEMS.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              className="rounded-md px-3 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2 text-sm">
          {session?.user ? (
            <>
              <span data-testid="signed-in-as" className="text-slate-500">
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
