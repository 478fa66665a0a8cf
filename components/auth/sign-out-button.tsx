"use client";

import { forgetAccessToken } from "@/lib/client/api-client";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => {
        forgetAccessToken();
        // next-auth's client is loaded only when someone signs out; no page needs it to render.
        void import("next-auth/react").then(({ signOut }) => signOut({ callbackUrl: "/login" }));
      }}
      className="rounded-md px-3 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
    >
      Sign out
    </button>
  );
}
