"use client";

import { useMutation } from "@tanstack/react-query";
import { ErrorNotice } from "@/components/ui/primitives";
import { authorizedFetch, toError } from "@/lib/client/api-client";

/**
 * Connect (or reconnect) an OAuth platform: a deliberate click on the brand's own page. It POSTs to
 * /api/channels/oauth/{channel}/start with the session's access token (same-origin only) and goes to the
 * platform's consent page it answers; a link or a GET from elsewhere connects nothing.
 */
export function OAuthConnectButton({
  channel,
  brandId,
  label,
  variant = "button",
}: {
  channel: "linkedin" | "instagram";
  brandId: string;
  label: string;
  variant?: "button" | "link";
}) {
  const start = useMutation({
    mutationFn: async () => {
      const response = await authorizedFetch(`/api/channels/oauth/${channel}/start`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ brandId }),
      });
      if (!response.ok) throw await toError(response);
      return ((await response.json()) as { authorizeUrl: string }).authorizeUrl;
    },
    onSuccess: (authorizeUrl) => window.location.assign(authorizeUrl),
  });
  const className =
    variant === "link"
      ? "font-medium underline disabled:opacity-60"
      : "inline-block rounded-lg bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60";
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={start.isPending || start.isSuccess}
        onClick={() => start.mutate()}
      >
        {start.isPending || start.isSuccess ? `Opening ${label.replace(/^(re)?connect /i, "")}…` : label}
      </button>
      {start.error && <ErrorNotice message={start.error.message} />}
    </>
  );
}
