"use client";

import { useState } from "react";

async function copyText(text: string) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain-HTTP origins (a LAN dev server) have no clipboard API; a selected textarea still copies.
  const area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

const DARK = "rounded-md border border-slate-600 px-2 py-0.5 text-xs text-slate-200 hover:bg-slate-700";

/** Copies `text`, then says "Copied" (or "Copy failed") for 1.5 s. `className` restyles it (dark by default). */
export function CopyButton({
  text,
  label = "Copy",
  className = DARK,
}: {
  text: string;
  label?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await copyText(text);
          setState("copied");
        } catch {
          setState("failed");
        }
        setTimeout(() => setState("idle"), 1500);
      }}
      className={className}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label}
    </button>
  );
}
