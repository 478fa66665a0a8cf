import { PublicationCalendar } from "@/components/publishing/publication-calendar";

export const metadata = { title: "Calendar" };

export default function CalendarPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Calendar</h1>
        <p className="text-sm text-slate-600">Scheduled, published and failed posts of a brand, by day.</p>
      </div>
      <PublicationCalendar />
    </div>
  );
}
