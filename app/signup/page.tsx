import Link from "next/link";
import { notFound } from "next/navigation";
import { safeCallbackUrl } from "@/components/auth/safe-callback";
import { SignupForm } from "@/components/auth/signup-form";
import { Card } from "@/components/ui/primitives";
import { config } from "@/lib/config";

export const metadata = { title: "Create an account" };
export const dynamic = "force-dynamic";

export default async function SignupPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string | string[] }>;
}) {
  if (!config.allowSignup) notFound();
  const { callbackUrl } = await searchParams;
  const next = safeCallbackUrl(typeof callbackUrl === "string" ? callbackUrl : null, "/brands");
  return (
    <div className="mx-auto max-w-sm space-y-6 pt-6">
      <div className="space-y-1 text-center">
        <h1 className="text-2xl font-semibold tracking-tight">Create your Brand Studio account</h1>
        <p className="text-sm text-slate-600">Set up a brand, then write your first post.</p>
      </div>
      <Card>
        <SignupForm callbackUrl={next} />
      </Card>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link href="/login" className="font-medium text-brand-600 hover:underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}
