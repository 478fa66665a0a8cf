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
  const server = await startTestServer();
  project.provide("baseUrl", server.url);
  project.provide("authSecret", server.authSecret);
  return () => server.stop();
}
