import { afterEach, describe, expect, it } from "vitest";
import { findTargetProblem, isPrivateAddress } from "@/lib/webhooks/ssrf";

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
