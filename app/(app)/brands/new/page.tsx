import Link from "next/link";
import { CreateBrandForm } from "@/components/brands/create-brand-form";

export const metadata = { title: "New brand" };

export default function NewBrandPage() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <Link href="/brands" className="text-sm text-slate-500 hover:text-slate-800">
          ← Brands
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">New brand</h1>
        <p className="text-sm text-slate-600">
          Only the name is required now. Add the avatar on the next page, once the brand exists.
        </p>
      </div>
      <CreateBrandForm />
    </div>
  );
}
