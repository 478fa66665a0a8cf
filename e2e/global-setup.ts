import { startTestServer } from "../test/support/test-server";

/** Starts the app for the browser tests; workers read its URL from the environment. */
export default async function globalSetup() {
  const server = await startTestServer({
    env: { RATE_LIMIT_GENERATE_PER_MINUTE: "100000", RATE_LIMIT_VIDEO_PER_MINUTE: "100000" },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return () => server.stop();
}
