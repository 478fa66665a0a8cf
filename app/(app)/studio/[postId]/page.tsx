import { StudioResults } from "@/components/analytics/studio-results";
import { PostStudio } from "@/components/studio/post-studio";

export const metadata = { title: "Studio" };

export default async function StudioPostPage({ params }: { params: Promise<{ postId: string }> }) {
  const { postId } = await params;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Studio</h1>
        <p className="text-sm text-slate-600">Edit the draft, try another version, and save it.</p>
      </div>
      <PostStudio key={postId} postId={postId} />
      <StudioResults key={`results-${postId}`} postId={postId} />
    </div>
  );
}
