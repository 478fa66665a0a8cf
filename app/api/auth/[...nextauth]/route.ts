import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { gateCredentialsCallback } from "@/lib/api/credentials-gate";
import { withApi } from "@/lib/api/handler";
import { authOperation } from "@/lib/auth/auth-operation";
import { getAuthOptions } from "@/lib/auth/auth-options";
import { applyAuthOriginDefault } from "@/lib/config";

const handler = withApi(
  async (req: NextRequest, { params }) => {
    applyAuthOriginDefault();
    // A locked-out sign-in is answered here (429 with Retry-After) before next-auth reads the password.
    const gated = await gateCredentialsCallback(req);
    if (gated instanceof Response) return gated;
    return NextAuth(gated, { params: params as { nextauth: string[] } }, getAuthOptions());
  },
  { operation: authOperation },
);

export { handler as GET, handler as POST };
