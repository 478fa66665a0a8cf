/**
 * `npm run fake-providers [-- --heygen-port 4010 --did-port 4020 --telegram-port 4030 --linkedin-port 4040 --instagram-port 4050 --render-ms 8000]`:
 * starts the local servers that speak the HeyGen, D-ID, Telegram Bot, LinkedIn and Instagram APIs (the same ones the tests use) and prints the environment
 * that points Brand Studio at them. Steer them while they run:
 *   curl -X POST localhost:4010/__fake/behavior -d '{"failNext":"No face found"}'
 *   curl -X POST localhost:4010/__fake/behavior -d '{"rateLimit":{"count":1,"retryAfterSeconds":5}}'
 *   curl -X POST localhost:4010/__fake/behavior -d '{"outage":true}'      # 503 on everything
 *   curl -X POST localhost:4010/__fake/behavior -d '{"dropWebhooks":true,"latencyMs":2000}'
 *   curl localhost:4010/__fake/state
 */
import { startFakeDid } from "../test/support/fake-did";
import { startFakeHeygen } from "../test/support/fake-heygen";
import { startFakeInstagram } from "../test/support/fake-instagram";
import { startFakeLinkedIn } from "../test/support/fake-linkedin";
import { startFakeTelegram } from "../test/support/fake-telegram";

function option(name: string, fallback: number) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

async function main() {
  const appUrl = process.argv.includes("--app-url")
    ? process.argv[process.argv.indexOf("--app-url") + 1]
    : "http://localhost:3000";
  const heygen = await startFakeHeygen({ port: option("heygen-port", 4010) });
  const did = await startFakeDid({ port: option("did-port", 4020) });
  const telegram = await startFakeTelegram({ port: option("telegram-port", 4030) });
  const botToken = telegram.addBot("brand_studio_demo_bot");
  telegram.addChannel({
    title: "Brand Studio demo",
    username: "brand_studio_demo",
    admins: [{ token: botToken }],
  });
  const linkedin = await startFakeLinkedIn({ port: option("linkedin-port", 4040) });
  const instagram = await startFakeInstagram({ port: option("instagram-port", 4050) });
  const renderMs = option("render-ms", 8000);
  heygen.behavior.renderMs = renderMs;
  did.behavior.renderMs = renderMs;
  // HeyGen registers webhooks per account; the fake sends them to the app's receiver.
  heygen.setWebhookUrl(`${appUrl}/api/webhooks/providers/heygen`);

  console.log(`Fake HeyGen on ${heygen.url}, fake D-ID on ${did.url} (videos take ${renderMs} ms).

Use HeyGen:
  VIDEO_PROVIDER=heygen HEYGEN_API_KEY=${heygen.apiKey} HEYGEN_BASE_URL=${heygen.url} HEYGEN_UPLOAD_BASE_URL=${heygen.url} npm run dev

Use D-ID:
  VIDEO_PROVIDER=did DID_API_KEY=${did.apiKey} DID_BASE_URL=${did.url} npm run dev

Then upload a brand avatar (it is sent to the provider) and make an avatar video.

Use Telegram (publishing):
  TELEGRAM_API_BASE_URL=${telegram.url} npm run dev
  then connect a channel in brand settings with bot token ${botToken} and chat @brand_studio_demo.
  Posted messages: curl ${telegram.url}/__fake/state
  Steer it: curl -X POST ${telegram.url}/__fake/behavior -d '{"rateLimit":{"count":1,"retryAfterSeconds":3}}'
            (also serverError {count, status} and sendLatencyMs)

Use LinkedIn (publishing, OAuth):
  LINKEDIN_CLIENT_ID=${linkedin.clientId} LINKEDIN_CLIENT_SECRET=${linkedin.clientSecret} LINKEDIN_AUTH_BASE_URL=${linkedin.url} LINKEDIN_API_BASE_URL=${linkedin.url} npm run dev
  then "Connect LinkedIn" in brand settings and press Allow on the fake's consent page.
  Posts and video uploads made: curl ${linkedin.url}/__fake/state
  Steer it: curl -X POST ${linkedin.url}/__fake/behavior -d '{"rateLimit":{"count":1,"retryAfterSeconds":3}}'
            (also serverError {count, status}, tokenLifetimeSeconds, and for videos videoPartBytes,
            videoPartError {count, status}, videoProcessing {reads, fail})
Use Instagram (publishing, OAuth; it fetches the media by URL, so APP_URL must be reachable from it):
  INSTAGRAM_APP_ID=${instagram.appId} INSTAGRAM_APP_SECRET=${instagram.appSecret} INSTAGRAM_AUTH_BASE_URL=${instagram.url} INSTAGRAM_TOKEN_BASE_URL=${instagram.url} INSTAGRAM_GRAPH_BASE_URL=${instagram.url} npm run dev
  then "Connect Instagram" in brand settings and press Allow on the fake's consent page.
  Posts made: curl ${instagram.url}/__fake/state
  Steer it: curl -X POST ${instagram.url}/__fake/behavior -d '{"rateLimit":{"count":1,"retryAfterSeconds":3}}'
            (also serverError {count, status}, pollsUntilFinished, failNextContainer "message", priorPosts
            (counted against the 50-a-day limit), failAfterPublish {count, status}, publishLatencyMs and
            tokenLifetimeSeconds)
Steer a fake with POST ${heygen.url}/__fake/behavior (failNext, rateLimit, outage, dropWebhooks, latencyMs, renderMs).`);

  const stop = async () => {
    await Promise.all([heygen.close(), did.close(), telegram.close(), linkedin.close(), instagram.close()]);
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
