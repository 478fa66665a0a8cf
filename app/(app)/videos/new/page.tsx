import { Suspense } from "react";
import { VideoJobForm } from "@/components/video/video-job-form";

export const metadata = { title: "New video" };

export default function NewVideoPage() {
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">New video</h1>
        <p className="text-sm text-slate-600">
          Make a short video from a post or a script. It renders in the background; you can watch its
          progress.
        </p>
      </div>
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <VideoJobForm />
      </Suspense>
    </div>
  );
}
