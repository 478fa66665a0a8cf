"use client";

import { useSearchParams } from "next/navigation";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { Button, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { safeCallbackUrl } from "./safe-callback";

const OAUTH_ERRORS: Record<string, string> = {
  OAuthAccountNotLinked: "That email already has a password account. Sign in with your email and password.",
  OAuthEmailMissing: "The provider did not share an email address.",
};

export function LoginForm({ oauthProviders }: { oauthProviders: { id: string; name: string }[] }) {
  const searchParams = useSearchParams();
  const callbackUrl = safeCallbackUrl(searchParams.get("callbackUrl"));
  const [error, setError] = useState<string | null>(OAUTH_ERRORS[searchParams.get("error") ?? ""] ?? null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email")),
      password: String(form.get("password")),
      redirect: false,
    });
    setPending(false);
    if (!result?.ok || result.error) {
      // A lockout (429) comes with its own message, e.g. "Too many failed sign-ins. Try again in 60 s."
      const lockedOut = result?.status === 429 || /too many/i.test(result?.error ?? "");
      setError(lockedOut && result?.error ? result.error : "Wrong email or password.");
      return;
    }
    // A full load: the router may hold a prefetched redirect to /login from before sign-in.
    window.location.assign(callbackUrl);
  }

  return (
    <div className="space-y-5">
      <form onSubmit={onSubmit} className="space-y-4">
        <Field label="Email">
          <TextInput name="email" type="email" autoComplete="email" required />
        </Field>
        <Field label="Password">
          <TextInput name="password" type="password" autoComplete="current-password" required />
        </Field>
        {error && <ErrorNotice message={error} />}
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      {oauthProviders.length > 0 && (
        <div className="space-y-2 border-t border-slate-200 pt-4">
          {oauthProviders.map((provider) => (
            <Button
              key={provider.id}
              variant="secondary"
              className="w-full"
              onClick={() => signIn(provider.id, { callbackUrl })}
            >
              Continue with {provider.name}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
