import { ReviewQueue } from "@/components/teams/review-queue";

export const metadata = { title: "Review" };

export default function ReviewPage() {
  return <ReviewQueue />;
}
