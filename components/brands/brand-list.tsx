"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError } from "@/lib/client/api-client";
import { brandQueries } from "@/lib/client/queries";
import { AvatarStatusBadge, BrandAvatar } from "./avatar-status";

export function BrandList() {
  const brands = useQuery(brandQueries.list());

  if (brands.isPending) {
    return (
      <div aria-busy className="grid gap-4 md:grid-cols-2">
        {[0, 1].map((index) => (
          <div key={index} className="h-28 animate-pulse rounded-xl border border-slate-200 bg-white" />
        ))}
      </div>
    );
  }
  if (brands.error) {
    const retryable = !(brands.error instanceof ApiClientError) || brands.error.retryable;
    return (
      <ErrorNotice message={brands.error.message} onRetry={retryable ? () => brands.refetch() : undefined} />
    );
  }
  if (brands.data.items.length === 0) {
    return (
      <Card className="py-12 text-center">
        <h2 className="font-semibold">No brands yet</h2>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
          A brand holds the tone, voice, rules and avatar that every post and video is written in. Create your
          first one to start.
        </p>
        <Link
          href="/brands/new"
          className="mt-5 inline-flex rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
        >
          Create a brand
        </Link>
      </Card>
    );
  }
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {brands.data.items.map((brand) => (
        <li key={brand.brandId}>
          <Link
            href={`/brands/${brand.brandId}`}
            data-testid="brand-card"
            className="flex gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500"
          >
            <BrandAvatar brand={brand} />
            <div className="min-w-0 flex-1 space-y-1">
              <div className="flex items-center justify-between gap-3">
                <h2 className="truncate font-semibold">{brand.name}</h2>
                <AvatarStatusBadge status={brand.avatarStatus} />
              </div>
              <p className="truncate text-sm text-slate-600">
                {brand.tone || <span className="italic text-amber-700">No tone yet: posts need one</span>}
              </p>
              <div className="flex items-center gap-1.5 pt-1 text-xs text-slate-500">
                <span
                  className="size-3 rounded-full border border-slate-200"
                  style={{ background: brand.primaryColor }}
                />
                <span
                  className="size-3 rounded-full border border-slate-200"
                  style={{ background: brand.secondaryColor }}
                />
                <span className="ml-1">
                  {(brand.languages ?? [brand.language]).join(" · ")} · {brand.effectiveMonthlyVideoQuota}{" "}
                  videos a month
                </span>
              </div>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
