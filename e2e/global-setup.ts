import { startTestServer } from "../test/support/test-server";

/** Starts the app for the browser tests; workers read its URL from the environment. */
export default async function globalSetup() {
  const server = await startTestServer();
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return () => server.stop();
}
