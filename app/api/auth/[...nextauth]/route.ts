import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/auth-options";

type Context = { params: Promise<{ nextauth: string[] }> };

const handler = (req: NextRequest, context: Context) => NextAuth(req, context, getAuthOptions());

export { handler as GET, handler as POST };
