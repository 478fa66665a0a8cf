import Link from "next/link";
import { redirect } from "next/navigation";
import { Suspense } from "react";
import { LoginForm } from "@/components/auth/login-form";
import { safeCallbackUrl } from "@/components/auth/safe-callback";
import { Card } from "@/components/ui/primitives";
import { DEMO_LOGIN } from "@/db/seed";
import { oauthProviderIds } from "@/lib/auth/auth-options";
import { getSession } from "@/lib/auth/get-session";
import { config } from "@/lib/config";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  if ((await getSession())?.user?.id) redirect(safeCallbackUrl((await searchParams).callbackUrl));
  return (
    <div className="mx-auto max-w-sm space-y-6 pt-6">
      <div className="space-y-1 text-center">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in to Brand Studio</h1>
        <p className="text-sm text-slate-600">Write on-brand posts and turn them into videos.</p>
      </div>
      <Card>
        <Suspense>
          <LoginForm oauthProviders={oauthProviderIds()} />
        </Suspense>
      </Card>
      {config.allowSignup && (
        <p className="text-center text-sm text-slate-600">
          New here?{" "}
          <Link href="/signup" className="font-medium text-brand-600 hover:underline">
            Create an account
          </Link>
        </p>
      )}
      {!config.isProduction && (
        <p className="text-center text-xs text-slate-500">
          Demo login: {DEMO_LOGIN.email} / {DEMO_LOGIN.password}
        </p>
      )}
    </div>
  );
}
