import { cookies } from "next/headers";
import { getServerSession } from "next-auth";
import { getAuthOptions } from "./auth-options";

/** The signed-in user's session in server components, or null. */
export async function getSession() {
  // Reading cookies first makes the page dynamic before the auth secret is touched, so builds never need it.
  await cookies();
  return getServerSession(getAuthOptions());
}
