import { LinkedInChoice } from "@/components/publishing/linkedin-choice";

export const metadata = { title: "Connect LinkedIn" };

export default async function LinkedInChoicePage({ params }: { params: Promise<{ brandId: string }> }) {
  const { brandId } = await params;
  return <LinkedInChoice brandId={brandId} />;
}
