import { BrandSettings } from "@/components/brands/brand-settings";
import { instagramConfigured } from "@/lib/publishing/platforms/instagram/client";
import { linkedinConfigured, linkedinPagesEnabled } from "@/lib/publishing/platforms/linkedin/client";

export const metadata = { title: "Brand settings" };

export default async function BrandSettingsPage({ params }: { params: Promise<{ brandId: string }> }) {
  const { brandId } = await params;
  return (
    <BrandSettings
      brandId={brandId}
      oauth={{
        linkedin: linkedinConfigured(),
        linkedinPages: linkedinPagesEnabled(),
        instagram: instagramConfigured(),
      }}
    />
  );
}
