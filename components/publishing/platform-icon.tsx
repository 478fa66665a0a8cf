import type { Channel } from "@/lib/contracts/post-rules";
import { PLATFORM_LABELS } from "./publishing-basics";

/** Each platform's mark: its colour and a glyph, small enough for a calendar chip. */
const MARKS: Record<Channel, { className: string; glyph: string }> = {
  telegram: { className: "bg-sky-500 text-white", glyph: "➤" },
  linkedin: { className: "bg-[#0A66C2] text-white", glyph: "in" },
  instagram: {
    className: "bg-gradient-to-br from-amber-400 via-pink-600 to-purple-700 text-white",
    glyph: "◎",
  },
};

/** A platform's icon; its name is read out (visually hidden) unless `label` is false. */
export function PlatformIcon({ channel, label = true }: { channel: Channel; label?: boolean }) {
  const mark = MARKS[channel];
  return (
    <span className="inline-flex shrink-0 items-center" data-platform={channel}>
      <span
        aria-hidden
        className={`grid size-4 place-items-center rounded text-[9px] font-bold leading-none ${mark.className}`}
      >
        {mark.glyph}
      </span>
      {label && <span className="sr-only">{PLATFORM_LABELS[channel]}</span>}
    </span>
  );
}
