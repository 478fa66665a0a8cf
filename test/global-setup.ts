import type { TestProject } from "vitest/node";
import { startTestServer } from "./support/test-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    authSecret: string;
  }
}

/** One shared server for the HTTP tests; tests that need other settings start their own. */
export default async function setup(project: TestProject) {
  // Tests send many requests a minute from one user; the limits have tests of their own on their own servers.
  const server = await startTestServer({
    env: { RATE_LIMIT_GENERATE_PER_MINUTE: "100000", RATE_LIMIT_VIDEO_PER_MINUTE: "100000" },
  });
  project.provide("baseUrl", server.url);
  project.provide("authSecret", server.authSecret);
  return () => server.stop();
}
