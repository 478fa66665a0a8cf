"use client";

import { signOut } from "next-auth/react";
import { forgetAccessToken } from "@/lib/client/api-client";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => {
        forgetAccessToken();
        void signOut({ callbackUrl: "/login" });
      }}
      className="rounded-md px-3 py-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
    >
      Sign out
    </button>
  );
}
