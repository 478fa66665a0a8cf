import { expect } from "vitest";

const bytesOf = async (url: string) => {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    bytes: await response.arrayBuffer(),
  };
};

/** The channel's picture is our signed copy of the platform's, byte for byte, not the platform's link. */
export async function expectKeptAvatar(server: string, avatarUrl: unknown, platformLink: string) {
  expect(avatarUrl).toMatch(/^\/media\/channels\/chn_[\w-]+\/avatar-[0-9a-f]{12}\.png\?exp=\d+&sig=[\w-]+$/);
  const ours = await bytesOf(new URL(avatarUrl as string, server).toString());
  const theirs = await bytesOf(platformLink);
  expect(ours.status).toBe(200);
  expect(ours.type).toBe("image/png");
  expect(Buffer.from(ours.bytes).equals(Buffer.from(theirs.bytes))).toBe(true);
}

/**
 * Once the platform's link has expired, the connection still shows its picture; a reconnect that cannot
 * fetch the picture keeps the platform's link and drops the old copy; the next one that can, copies it again.
 */
export async function expectAvatarAfterExpiry({
  platform,
  link,
  server,
  reconnect,
  channels,
}: {
  platform: { behavior: { avatarGone: boolean } };
  link: string;
  server: { url: string; logs: () => string };
  reconnect: () => Promise<unknown>;
  channels: () => Promise<{ [key: string]: unknown }[]>;
}) {
  const kept = (await channels())[0].avatarUrl as string;
  platform.behavior.avatarGone = true;
  try {
    expect((await bytesOf(link)).status).toBe(404);
    expect((await bytesOf(new URL(kept, server.url).toString())).status).toBe(200);

    await reconnect();
    expect((await channels())[0].avatarUrl).toBe(link);
    expect((await bytesOf(new URL(kept, server.url).toString())).status).toBe(404);
    // The warning names the host, never the link's query (a CDN link's signature).
    expect(server.logs()).toContain("channel_avatar_not_kept");
  } finally {
    platform.behavior.avatarGone = false;
  }
  await reconnect();
  await expectKeptAvatar(server.url, (await channels())[0].avatarUrl, link);
}
