import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GithubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { getEnv } from "@/lib/config";
import { ApiError } from "@/lib/errors/api-error";
import { mintAccessToken } from "./access-token";
import { ACCESS_TOKEN_REFRESH_WINDOW_MS } from "./access-token-window";
import { clientIp } from "./client-ip";
import { getAuthSecret } from "./secret";
import { assertSignInAllowed, recordSignInFailure, recordSignInSuccess } from "./sign-in-throttle";
import { findOrCreateOAuthUser, verifyCredentials } from "./users";

/** OAuth providers turn on only when their credentials are configured. */
function oauthProviders() {
  const env = getEnv();
  const providers = [];
  if (env.GITHUB_ID && env.GITHUB_SECRET) {
    providers.push(GithubProvider({ clientId: env.GITHUB_ID, clientSecret: env.GITHUB_SECRET }));
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    providers.push(
      GoogleProvider({ clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }),
    );
  }
  return providers;
}

export function oauthProviderIds() {
  return oauthProviders().map((provider) => ({ id: provider.id, name: provider.name }));
}

// Built per request so AUTH_SECRET (or the generated development secret) is read at run time, not at build.
export function getAuthOptions(): AuthOptions {
  return {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          const attempt = { email: credentials.email, ip: clientIp(req?.headers) };
          try {
            // Locked out: next-auth turns the thrown message into ?error=…, which the sign-in page shows.
            await assertSignInAllowed(attempt);
            const user = await verifyCredentials({ email: attempt.email, password: credentials.password });
            if (!user) {
              await recordSignInFailure(attempt);
              return null;
            }
            await recordSignInSuccess(attempt);
            return { id: user.id, email: user.email, name: user.name };
          } catch (error) {
            if (error instanceof ApiError) throw error;
            // Never a driver message in the sign-in page's URL.
            throw new Error("Sign-in is unavailable right now. Try again in a moment.");
          }
        },
      }),
      ...oauthProviders(),
    ],
    callbacks: {
      async signIn({ user, account }) {
        if (!account || account.type === "credentials") return true;
        if (!user.email) return "/login?error=OAuthEmailMissing";
        const userId = await findOrCreateOAuthUser({
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          email: user.email,
          name: user.name,
        });
        if (!userId) return "/login?error=OAuthAccountNotLinked";
        // The jwt callback receives this same object: from here on the id is ours, not the provider's.
        user.id = userId;
        return true;
      },
      async jwt({ token, user }) {
        if (user) token.sub = user.id;
        const expires = typeof token.accessTokenExpires === "number" ? token.accessTokenExpires : 0;
        if (token.sub && expires - Date.now() < ACCESS_TOKEN_REFRESH_WINDOW_MS) {
          const minted = await mintAccessToken(token.sub);
          token.accessToken = minted.token;
          token.accessTokenExpires = minted.expiresAt;
        }
        return token;
      },
      async session({ session, token }) {
        return {
          ...session,
          user: { ...session.user, id: token.sub },
          accessToken: token.accessToken,
          accessTokenExpires: token.accessTokenExpires,
        };
      },
    },
  };
}
