import { expect } from "vitest";
import { api } from "./http";

/**
 * The browser's way through a platform's consent, against a server and the platform's fake: start → the
 * fake's consent page → its "Allow" (or "Cancel") link, which is the callback URL with code and state.
 */
export async function authorizeOAuth(
  platform: "linkedin" | "instagram",
  { server, token, brandId }: { server: string; token: string; brandId: string },
  /** "allow-publishing": the fake Instagram's consent without the insights permission. */
  choice: "allow" | "allow-publishing" | "cancel" = "allow",
) {
  const start = await fetch(`${server}/api/channels/oauth/${platform}/start?brandId=${brandId}`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: "manual",
  });
  expect(start.status, await start.clone().text()).toBe(302);
  const location = new URL(start.headers.get("location") as string);
  const page = await (await fetch(location)).text();
  const href = new RegExp(`id="${choice}" href="([^"]+)"`).exec(page)?.[1] as string;
  return { authorizeUrl: location, callback: new URL(href.replaceAll("&amp;", "&")) };
}

/** The browser arriving back at the callback URL. */
export function followOAuthCallback(server: string, token: string, url: URL) {
  return api(`${url.pathname}${url.search}`, { server, token, redirect: "manual" });
}
