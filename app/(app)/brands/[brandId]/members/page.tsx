import { BrandMembers } from "@/components/teams/brand-members";

export const metadata = { title: "Brand members" };

export default async function BrandMembersPage({ params }: { params: Promise<{ brandId: string }> }) {
  const { brandId } = await params;
  return <BrandMembers brandId={brandId} />;
}
