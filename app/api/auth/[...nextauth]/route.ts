import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/auth-options";
import { gateCredentialsCallback } from "@/lib/auth/credentials-gate";
import { applyAuthOriginDefault } from "@/lib/config";

type Context = { params: Promise<{ nextauth: string[] }> };

const handler = async (req: NextRequest, context: Context) => {
  applyAuthOriginDefault();
  // A locked-out sign-in is answered here (429 with Retry-After) before next-auth reads the password.
  const gated = await gateCredentialsCallback(req);
  if (gated instanceof Response) return gated;
  return NextAuth(gated, context, getAuthOptions());
};

export { handler as GET, handler as POST };
