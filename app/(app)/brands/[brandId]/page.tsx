import { BrandSettings } from "@/components/brands/brand-settings";

export const metadata = { title: "Brand settings" };

export default async function BrandSettingsPage({ params }: { params: Promise<{ brandId: string }> }) {
  const { brandId } = await params;
  return <BrandSettings brandId={brandId} />;
}
