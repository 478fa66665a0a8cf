import Link from "next/link";
import { BackendStatus } from "@/components/home/backend-status";

const STEPS = [
  {
    title: "Set up your brand",
    body: "Tone, voice, audience, do's and don'ts, banned words, colours and an avatar.",
    href: "/brands",
  },
  {
    title: "Write a brief, get a draft",
    body: "Pick a channel, a topic and a goal. Get a caption, a media plan and hashtags that fit the channel.",
    href: "/studio",
  },
  {
    title: "Turn it into a video",
    body: "Start a video job from the post or a script and watch it render. Put the video in the post.",
    href: "/videos",
  },
];

// Rendered per request so Next puts the proxy's CSP nonce on its inline scripts (proxy.ts).
export const dynamic = "force-dynamic";

export default function HomePage() {
  return (
    <div className="space-y-12">
      <section className="space-y-5">
        <BackendStatus />
        <h1 className="max-w-3xl text-4xl font-semibold tracking-tight text-slate-900">
          From brief to on-brand post to video, in your brand&apos;s voice.
        </h1>
        <p className="max-w-2xl text-lg text-slate-600">
          Brand Studio writes draft social posts for Telegram, Instagram and LinkedIn that keep each
          channel&apos;s rules, and renders them into videos you can watch as they progress.
        </p>
        <div className="flex gap-3">
          <Link
            href="/studio"
            className="rounded-lg bg-brand-600 px-4 py-2 font-medium text-white shadow-sm hover:bg-brand-700"
          >
            Open the studio
          </Link>
          <Link
            href="/api-docs"
            className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-700 hover:bg-slate-100"
          >
            Read the API docs
          </Link>
        </div>
      </section>
      <section className="grid gap-4 md:grid-cols-3">
        {STEPS.map((step, index) => (
          <Link
            key={step.href}
            href={step.href}
            className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500"
          >
            <div className="text-sm font-medium text-brand-600">Step {index + 1}</div>
            <h2 className="mt-1 font-semibold">{step.title}</h2>
            <p className="mt-2 text-sm text-slate-600">{step.body}</p>
          </Link>
        ))}
      </section>
    </div>
  );
}
