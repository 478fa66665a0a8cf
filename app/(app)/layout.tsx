import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getSession } from "@/lib/auth/get-session";

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const session = await getSession();
  if (!session?.user?.id) {
    const path = (await headers()).get("x-pathname") ?? "/";
    redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  }
  return children;
}
