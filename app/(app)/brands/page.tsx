import Link from "next/link";
import { BrandList } from "@/components/brands/brand-list";

export const metadata = { title: "Brands" };

export default function BrandsPage() {
  return (
    <div className="space-y-6">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Brands</h1>
          <p className="text-sm text-slate-600">
            Each brand keeps the voice, rules and avatar its posts and videos use.
          </p>
        </div>
        <Link
          href="/brands/new"
          className="shrink-0 whitespace-nowrap rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
        >
          New brand
        </Link>
      </div>
      <BrandList />
    </div>
  );
}
