import { fakeInstagramEnv, startFakeInstagram } from "../test/support/fake-instagram";
import { startFakeLinkedIn } from "../test/support/fake-linkedin";
import { startFakeTelegram } from "../test/support/fake-telegram";
import { serveMailbox, startSmtpSink } from "../test/support/smtp-sink";
import { startTestServer } from "../test/support/test-server";

/**
 * Starts the app (with fake Telegram, LinkedIn and Instagram APIs for publishing, and a real SMTP server for
 * invitations) for the browser tests; workers read their URLs from the environment.
 */
export default async function globalSetup() {
  const telegram = await startFakeTelegram();
  const linkedin = await startFakeLinkedIn();
  const instagram = await startFakeInstagram();
  const smtp = await startSmtpSink();
  const mailbox = await serveMailbox(smtp);
  const server = await startTestServer({
    env: {
      TELEGRAM_API_BASE_URL: telegram.url,
      LINKEDIN_CLIENT_ID: linkedin.clientId,
      LINKEDIN_CLIENT_SECRET: linkedin.clientSecret,
      LINKEDIN_AUTH_BASE_URL: linkedin.url,
      LINKEDIN_API_BASE_URL: linkedin.url,
      LINKEDIN_ORGANIZATIONS: "true",
      ...fakeInstagramEnv(instagram),
      SMTP_URL: smtp.url,
      SMTP_FROM: "Brand Studio <studio@example.test>",
    },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_TELEGRAM_URL = telegram.url;
  process.env.E2E_LINKEDIN_URL = linkedin.url;
  process.env.E2E_INSTAGRAM_URL = instagram.url;
  // GET ${E2E_MAILBOX_URL}/mail?to=<address>: what the app emailed (test/support/smtp-sink.ts).
  process.env.E2E_MAILBOX_URL = mailbox.url;
  return async () => {
    await server.stop();
    await telegram.close();
    await linkedin.close();
    await instagram.close();
    await mailbox.close();
    await smtp.stop();
  };
}
