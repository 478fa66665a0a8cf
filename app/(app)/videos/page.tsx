import Link from "next/link";
import { VideoJobList } from "@/components/video/video-job-list";

export const metadata = { title: "Videos" };

export default function VideosPage() {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Videos</h1>
          <p className="text-sm text-slate-600">Videos made from your posts and scripts, newest first.</p>
        </div>
        <Link
          href="/videos/new"
          className="shrink-0 whitespace-nowrap rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
        >
          New video
        </Link>
      </div>
      <VideoJobList />
    </div>
  );
}
