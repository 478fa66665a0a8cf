import type { TestProject } from "vitest/node";
import { prepareDatabaseTemplate, startTestServer } from "./support/test-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    authSecret: string;
  }
}

/** One shared server for the HTTP tests; tests that need other settings start their own. */
export default async function setup(project: TestProject) {
  // Test servers start on copies of one prepared database (PGlite folder or PostgreSQL template).
  const removeTemplate = await prepareDatabaseTemplate();
  const server = await startTestServer();
  project.provide("baseUrl", server.url);
  project.provide("authSecret", server.authSecret);
  return async () => {
    await server.stop();
    await removeTemplate();
  };
}
