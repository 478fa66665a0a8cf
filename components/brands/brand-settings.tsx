"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { AvatarPanel } from "@/components/brands/avatar-panel";
import { AvatarStatusBadge, BrandAvatar } from "@/components/brands/avatar-status";
import { BrandForm } from "@/components/brands/brand-form";
import { BrandKitPanel } from "@/components/brands/brand-kit-panel";
import { ChannelsPanel, type OAuthAvailability } from "@/components/publishing/channels-panel";
import { NotFoundNotice } from "@/components/ui/not-found-notice";
import { Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError } from "@/lib/client/api-client";
import { brandChanged, brandQueries } from "@/lib/client/queries";
import { can } from "@/lib/contracts/permissions";
import { formatInZone } from "@/lib/contracts/time-zone";

function PromptPreview({ brandId }: { brandId: string }) {
  const context = useQuery(brandQueries.context(brandId));
  return (
    <Card className="space-y-3">
      <div>
        <h2 className="font-semibold">What the model reads</h2>
        <p className="text-sm text-slate-600">
          The exact system prompt post generation sends for this brand.
        </p>
      </div>
      {context.isPending && <div className="h-32 animate-pulse rounded-lg bg-slate-100" />}
      {context.error && <ErrorNotice message={context.error.message} onRetry={() => context.refetch()} />}
      {context.data && (
        // A scroll box: keyboard users reach it with Tab and scroll it with the arrow keys (WCAG 2.1.1).
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable.
          tabIndex={0}
          aria-label="The system prompt for this brand"
          className="max-h-96 overflow-auto rounded-lg bg-slate-900 p-4"
        >
          <pre
            data-testid="brand-prompt"
            className="whitespace-pre-wrap text-xs leading-relaxed text-slate-100"
          >
            {context.data.prompt}
          </pre>
        </section>
      )}
    </Card>
  );
}

export function BrandSettings({ brandId, oauth }: { brandId: string; oauth: OAuthAvailability }) {
  const queryClient = useQueryClient();
  const brand = useQuery(brandQueries.detail(brandId));

  if (brand.isPending) {
    return (
      // The page's own header in outline, so that what loads does not push it about.
      <div aria-busy className="space-y-6">
        <div>
          <Link href="/brands" className="text-sm text-slate-500 hover:text-slate-800">
            ← Brands
          </Link>
          <div className="mt-2 flex items-center gap-4">
            <div className="size-14 animate-pulse rounded-full bg-slate-200" />
            <div className="h-8 w-56 animate-pulse rounded bg-slate-200" />
          </div>
          <div className="mt-4 h-5 w-40 animate-pulse rounded bg-slate-100" />
        </div>
        <div className="h-96 animate-pulse rounded-xl border border-slate-200 bg-white" />
      </div>
    );
  }
  if (brand.error) {
    const notFound = brand.error instanceof ApiClientError && brand.error.status === 404;
    return (
      <NotFoundNotice
        title={notFound ? "Brand not found" : undefined}
        message={notFound ? "This brand does not exist, or it is not one of yours." : brand.error.message}
        onRetry={notFound ? undefined : () => brand.refetch()}
        href="/brands"
        linkLabel="Back to your brands"
      />
    );
  }

  const canEdit = can(brand.data.role, "brand.update");
  return (
    <div className="space-y-6">
      <div>
        <Link href="/brands" className="text-sm text-slate-500 hover:text-slate-800">
          ← Brands
        </Link>
        <div className="mt-2 flex items-center gap-4">
          <BrandAvatar brand={brand.data} size={56} />
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold tracking-tight">{brand.data.name}</h1>
            <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-500">
              <AvatarStatusBadge status={brand.data.avatarStatus} />
              <span className="whitespace-nowrap">
                Updated {formatInZone(brand.data.updatedAt, brand.data.timeZone)}
              </span>
              <span className="whitespace-nowrap" data-testid="my-role">
                Your role: {brand.data.role}
              </span>
            </div>
          </div>
        </div>
        <nav aria-label="Brand" className="mt-4 flex gap-4 text-sm font-medium">
          <Link href={`/brands/${brandId}/members`} className="text-brand-600 hover:underline">
            Members
          </Link>
          <Link href={`/brands/${brandId}/activity`} className="text-brand-600 hover:underline">
            Activity
          </Link>
          <Link href={`/brands/${brandId}/analytics`} className="text-brand-600 hover:underline">
            Analytics
          </Link>
        </nav>
        {!canEdit && (
          <p role="note" className="mt-3 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">
            You can read this brand. Only an owner can change its settings or avatar.
          </p>
        )}
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <BrandForm
          key={brandId}
          brand={brand.data}
          readOnly={!canEdit}
          onSaved={(saved) => brandChanged(queryClient, saved)}
        />
        <div className="space-y-6 lg:sticky lg:top-6">
          {/* Not `display: contents`: the column's spacing cannot land on such a box, and the cards touched. */}
          <fieldset disabled={!canEdit} className="min-w-0">
            <BrandKitPanel brand={brand.data} />
          </fieldset>
          <AvatarPanel brand={brand.data} readOnly={!canEdit} />
          {can(brand.data.role, "channel.manage") && (
            <ChannelsPanel brandId={brandId} oauth={oauth} languages={brand.data.languages} />
          )}
          <PromptPreview brandId={brandId} />
        </div>
      </div>
    </div>
  );
}
