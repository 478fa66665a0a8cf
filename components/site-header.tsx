import Link from "next/link";

export const NAV_ITEMS = [
  { href: "/studio", label: "Studio" },
  { href: "/brands", label: "Brands" },
  { href: "/videos", label: "Videos" },
  { href: "/api-docs", label: "API docs" },
  { href: "/settings", label: "Settings" },
] as const;

export function SiteHeader() {
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
      </div>
    </header>
  );
}
