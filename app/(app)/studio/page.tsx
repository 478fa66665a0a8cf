import { PostStudio } from "@/components/studio/post-studio";

export const metadata = { title: "Studio" };

export default function StudioPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Studio</h1>
        <p className="text-sm text-slate-600">
          Write a brief, get a draft in your brand's voice, edit it and save it.
        </p>
      </div>
      <PostStudio />
    </div>
  );
}
