import { randomBytes } from "node:crypto";
import { DEMO_LOGIN } from "@/db/seed";

function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const index = pair.indexOf("=");
        cookies.set(pair.slice(0, index), pair.slice(index + 1));
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
  };
}

/** Signs in as a browser does (csrf → credentials callback → session) and returns the session's access token. */
/** Fetches a CSRF token once; each call of `post` then sends one credentials sign-in (the password check). */
async function credentialsForm(server: string) {
  const jar = cookieJar();
  const csrfResponse = await fetch(`${server}/api/auth/csrf`);
  jar.take(csrfResponse);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const post = (email: string, password: string) =>
    fetch(`${server}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
      body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    });
  return { jar, post };
}

/** Milliseconds the server takes to refuse a wrong password for `email` (the credentials POST alone). */
export async function timeWrongPassword(server: string, email: string) {
  const { post } = await credentialsForm(server);
  const started = performance.now();
  await (await post(email, "definitely-wrong")).arrayBuffer();
  return performance.now() - started;
}

export async function signIn(server: string, email: string, password: string) {
  const { jar, post } = await credentialsForm(server);
  jar.take(await post(email, password));
  const sessionResponse = await fetch(`${server}/api/auth/session`, { headers: { cookie: jar.header() } });
  const session = (await sessionResponse.json()) as {
    accessToken?: string;
    accessTokenExpires?: number;
    user?: { id: string; email: string };
  };
  if (!session.accessToken) throw new Error(`Sign-in failed for ${email}.`);
  return { accessToken: session.accessToken, session, cookie: jar.header() };
}

export function signInAsDemo(server: string) {
  return signIn(server, DEMO_LOGIN.email, DEMO_LOGIN.password);
}

/** Creates a brand-new user through POST /api/users and signs in as them. */
export async function newUser(server: string) {
  const email = `user-${randomBytes(5).toString("hex")}@example.test`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const response = await fetch(`${server}/api/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, name: "Test User" }),
  });
  if (response.status !== 201) throw new Error(`Sign-up failed: ${response.status} ${await response.text()}`);
  const { userId } = (await response.json()) as { userId: string };
  const { accessToken } = await signIn(server, email, password);
  return { userId, email, password, token: accessToken };
}
