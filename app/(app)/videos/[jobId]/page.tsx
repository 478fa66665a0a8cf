import { VideoJobView } from "@/components/video/video-job-view";

export const metadata = { title: "Video" };

export default async function VideoJobPage({ params }: { params: Promise<{ jobId: string }> }) {
  const { jobId } = await params;
  return <VideoJobView jobId={jobId} />;
}
