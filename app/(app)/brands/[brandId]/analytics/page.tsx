import { BrandAnalytics } from "@/components/analytics/brand-analytics";

export const metadata = { title: "Brand analytics" };

export default async function BrandAnalyticsPage({ params }: { params: Promise<{ brandId: string }> }) {
  const { brandId } = await params;
  return <BrandAnalytics brandId={brandId} />;
}
