import type { BrandResponse } from "@/lib/contracts/brands";

const LOOK: Record<BrandResponse["avatarStatus"], { label: string; className: string }> = {
  none: { label: "No avatar", className: "bg-slate-100 text-slate-600" },
  training: { label: "Avatar training", className: "bg-amber-100 text-amber-800" },
  ready: { label: "Avatar ready", className: "bg-emerald-100 text-emerald-800" },
  failed: { label: "Avatar failed", className: "bg-red-100 text-red-700" },
};

export function AvatarStatusBadge({ status }: { status: BrandResponse["avatarStatus"] }) {
  const { label, className } = LOOK[status];
  return (
    <span
      data-testid="avatar-status"
      data-status={status}
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-medium ${className}`}
    >
      {status === "training" && <span className="size-1.5 animate-pulse rounded-full bg-amber-500" />}
      {label}
    </span>
  );
}

/** The brand's face: the prepared circular frame when there is one, else its initial on its colour. */
export function BrandAvatar({ brand, size = 48 }: { brand: BrandResponse; size?: number }) {
  if (brand.avatarFrameUrl) {
    return (
      // biome-ignore lint/performance/noImgElement: media files are served by this app's own route.
      <img
        src={brand.avatarFrameUrl}
        alt=""
        style={{ width: size, height: size }}
        className="shrink-0 self-start rounded-full object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden
      style={{ width: size, height: size, backgroundColor: brand.primaryColor, color: brand.secondaryColor }}
      className="grid shrink-0 place-items-center self-start rounded-full text-lg font-semibold"
    >
      {brand.name.charAt(0).toUpperCase()}
    </span>
  );
}
