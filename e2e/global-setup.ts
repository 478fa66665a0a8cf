import { startFakeTelegram } from "../test/support/fake-telegram";
import { startTestServer } from "../test/support/test-server";

/** Starts the app (and a fake Telegram Bot API for publishing) for the browser tests; workers read their URLs from the environment. */
export default async function globalSetup() {
  const telegram = await startFakeTelegram();
  const server = await startTestServer({ env: { TELEGRAM_API_BASE_URL: telegram.url } });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_TELEGRAM_URL = telegram.url;
  return async () => {
    await server.stop();
    await telegram.close();
  };
}
