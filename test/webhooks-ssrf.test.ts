import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { keepChannelAvatar } from "@/lib/publishing/channel-avatar";
import { guardedFetch } from "@/lib/security/outbound-fetch";
import { findTargetProblem, isPrivateAddress, type Resolve } from "@/lib/security/ssrf";

describe("the webhook SSRF guard", () => {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  afterEach(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = saved;
  });

  it("knows private, loopback, link-local and mapped addresses from public ones", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::7f00:1",
      "64:ff9b::a9fe:a9fe",
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it("refuses private targets, resolving host names, unless WEBHOOK_ALLOW_PRIVATE_TARGETS is on", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
    expect(await findTargetProblem("http://127.0.0.1:8080/hook")).toMatch(/private, loopback or link-local/);
    expect(await findTargetProblem("http://169.254.169.254/latest/meta-data")).toMatch(/private/);
    expect(await findTargetProblem("http://[::1]/hook")).toMatch(/private/);
    expect(await findTargetProblem("http://localhost/hook")).toMatch(/private/);
    expect(await findTargetProblem("https://93.184.215.14/hook")).toBeNull();
    expect(await findTargetProblem("file:///etc/passwd")).toMatch(/https:\/\//);
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    expect(await findTargetProblem("http://127.0.0.1:8080/hook")).toBeNull();
  });
});

/**
 * The address a connection uses is the one checked (issue 39, item 15): a host name that resolves to a
 * public address for the check and to a private one a moment later (DNS rebinding), or to NAT64, is refused
 * when connecting. Host names resolve through a stand-in resolver; the only traffic is to 127.0.0.1.
 */
describe("outbound fetches pin the checked address", () => {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  const requests: string[] = [];
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url ?? "");
      res.writeHead(200, { "content-type": "image/png" }).end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = saved;
    requests.length = 0;
  });

  /** Answers `first` to the first question, `then` to every later one (a rebinding DNS server). */
  const rebinding = (first: string, then: string): Resolve => {
    let asked = 0;
    return async () => {
      const address = asked++ === 0 ? first : then;
      return [{ address, family: address.includes(":") ? 6 : 4 }];
    };
  };

  it("refuses at connect time a host that passed the check and now resolves to a private address", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
    const url = `http://rebind.test:${port}/hook`;
    // The check alone is fooled: its answer is public.
    expect(await findTargetProblem(url, rebinding("93.184.215.14", "127.0.0.1"))).toBeNull();
    const failure = await guardedFetch(url, {
      method: "POST",
      resolve: rebinding("93.184.215.14", "127.0.0.1"),
    }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error & { cause?: Error }).cause?.message)).toMatch(
      /resolves to 127\.0\.0\.1, a private/,
    );
    expect(requests).toEqual([]);
  });

  it("refuses NAT64 (64:ff9b::/96), at the check and at connect time", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
    const url = `http://nat64.test:${port}/hook`;
    expect(await findTargetProblem(url, rebinding("64:ff9b::7f00:1", "64:ff9b::7f00:1"))).toMatch(/private/);
    const failure = await guardedFetch(url, { resolve: rebinding("93.184.215.14", "64:ff9b::7f00:1") }).catch(
      (error: Error) => error,
    );
    expect(String((failure as Error & { cause?: Error }).cause?.message)).toMatch(/64:ff9b::7f00:1/);
    expect(requests).toEqual([]);
  });

  it("connects to the address its lookup gave (private targets allowed, as in development)", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    const response = await guardedFetch(`http://pinned.test:${port}/pinned`, {
      resolve: rebinding("127.0.0.1", "127.0.0.1"),
    });
    expect(response.status).toBe(200);
    expect(requests).toEqual(["/pinned"]);
  });

  it("keeps a channel's picture only through the guard", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
    expect(await keepChannelAvatar("chn_ssrf", `http://127.0.0.1:${port}/picture.png`)).toBeNull();
    expect(requests).toEqual([]);
  });
});
