"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { Button, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { signUp } from "@/lib/client/operations";

/** `callbackUrl`: where to go once signed up (a same-site path, checked by the page). */
export function SignupForm({ callbackUrl = "/brands" }: { callbackUrl?: string }) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      email: String(form.get("email")),
      password: String(form.get("password")),
      name: String(form.get("name")),
    };
    setPending(true);
    setError(null);
    setFieldErrors({});
    try {
      await callApi(signUp, { body });
      const result = await signIn("credentials", {
        email: body.email,
        password: body.password,
        redirect: false,
      });
      if (!result?.ok) throw new Error("Your account was created, but signing in failed. Try signing in.");
      window.location.assign(callbackUrl);
    } catch (caught) {
      if (caught instanceof ApiClientError && Array.isArray(caught.details)) {
        setFieldErrors(
          Object.fromEntries(
            caught.details.map((issue: { path: string; message: string }) => [issue.path, issue.message]),
          ),
        );
      }
      setError(caught instanceof Error ? caught.message : "Sign-up failed.");
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <Field label="Name" error={fieldErrors.name}>
        <TextInput name="name" autoComplete="name" />
      </Field>
      <Field label="Email" error={fieldErrors.email}>
        <TextInput name="email" type="email" autoComplete="email" required />
      </Field>
      <Field label="Password" error={fieldErrors.password} hint="At least 8 characters.">
        <TextInput name="password" type="password" autoComplete="new-password" minLength={8} required />
      </Field>
      {error && <ErrorNotice message={error} />}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
