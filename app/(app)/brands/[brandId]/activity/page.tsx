import { BrandActivity } from "@/components/teams/brand-activity";

export const metadata = { title: "Brand activity" };

export default async function BrandActivityPage({ params }: { params: Promise<{ brandId: string }> }) {
  const { brandId } = await params;
  return <BrandActivity brandId={brandId} />;
}
