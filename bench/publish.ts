import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { newUser } from "../test/support/auth";
import { startFakeTelegram } from "../test/support/fake-telegram";
import { startWorkerProcess, type WorkerProcess } from "../test/support/video-worker-process";
import { cpuMs, percentile, sleep } from "./measure";
import { buildAll, ROOT, type Running, startApp } from "./servers";

/**
 * `node --conditions=react-server --import tsx bench/publish.ts [--pg <url>] [--channels 50] [--posts 20]
 * [--latency-ms 50] [--chat-limit 10/10] [--limited-seconds 30]` (`npm run bench:publish`): issue 44's
 * "nine o'clock" on PostgreSQL. The app (WORKER=off) and two `npm run worker` processes (plain node, as the
 * tests start them) share a database; the fake Telegram runs in this process: every send answered after
 * `--latency-ms`, each chat taking at most N sends per S seconds (`--chat-limit N/S`, then 429 with the
 * retry_after until the window has room), and one chat answering every send 429 (retry_after 10) for the
 * first `--limited-seconds` (a channel rate limited for long).
 * `--posts` posts × `--channels` channels = 1,000 publications, created through the API for an hour ahead,
 * then made due at the same instant T (their rows' publish_at and their queue entries' start_after moved to
 * T in one statement each) with both workers idle and waiting. Measured at the fake: each message's
 * lateness (when the fake accepted it, minus T), duplicates (the same post twice in one chat), the sends to
 * the limited chat, and the other channels' lateness on their own (nothing waits behind the limited one).
 * Goals: all sent within 60 s of T, p95 ≤ 20 s, none twice. Prints the figures; copy them to bench/notes.md.
 * Builds the app only when there is no build (the workers run this checkout's source).
 */
function option(name: string, fallback: string) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

async function main() {
  const pgBase = option("pg", "postgres://postgres@127.0.0.1:5432/postgres");
  const channelCount = Number(option("channels", "50"));
  const postCount = Number(option("posts", "20"));
  const [limitMessages, limitSeconds] = option("chat-limit", "10/10").split("/").map(Number);
  const limitedSeconds = Number(option("limited-seconds", "30"));
  // The app only takes the publications (WORKER=off); the workers run this checkout's source, so any
  // existing build will do.
  if (!fs.existsSync(path.join(ROOT, ".next-test", "BUILD_ID"))) buildAll(false);
  const telegram = await startFakeTelegram();
  const running: Running[] = [];
  const workers: WorkerProcess[] = [];
  const stopAll = async () => {
    await Promise.allSettled(workers.map((w) => w.stop()));
    await Promise.allSettled(running.reverse().map((r) => r.stop()));
    await telegram.close();
  };
  process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
  try {
    const authSecret = `bench-secret-${randomBytes(16).toString("hex")}`;
    const env = {
      AUTH_SECRET: authSecret,
      TELEGRAM_API_BASE_URL: telegram.url,
    };
    const app = await startApp({ name: "PostgreSQL, WORKER=off", postgresUrl: pgBase, worker: "off", env });
    running.push(app);
    const { token } = await newUser(app.url);
    const call = async (path: string, body: unknown, method = "POST") => {
      const response = await fetch(`${app.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 300)
        throw new Error(`${method} ${path} answered ${response.status}: ${text}\n${app.logs().slice(-3000)}`);
      return JSON.parse(text);
    };
    const { brandId } = await call("/api/brands", { name: "Nine O'Clock", tone: "warm", voice: "short" });
    const bot = telegram.addBot("nine_oclock_bot");
    const chats: number[] = [];
    const channelIds: string[] = [];
    for (let i = 0; i < channelCount; i++) {
      const chat = telegram.addChannel({ title: `Channel ${i}`, admins: [{ token: bot }] });
      chats.push(chat);
      channelIds.push(
        (await call("/api/channels", { brandId, channel: "telegram", botToken: bot, chatId: String(chat) }))
          .channelId,
      );
    }
    // Each post's caption is its text at Telegram (no hashtags): a message names its post.
    const postIds: string[] = [];
    const postOf = new Map<string, string>();
    for (let i = 0; i < postCount; i++) {
      const { postId } = await call("/api/content/create", {
        brandId,
        channel: "telegram",
        goal: "announcement",
        topic: "A new single-origin roast in every café",
      });
      const caption = `Morning special number ${i + 1}: a new single-origin roast in every café.`;
      await call(
        `/api/posts/${postId}`,
        { caption, hashtags: [], mediaPlan: { format: "text_only", items: [] } },
        "PATCH",
      );
      postIds.push(postId);
      postOf.set(caption, postId);
    }
    // Every post on every channel, 16 requests at a time, each for another post (a publication locks its post).
    const hourAhead = new Date(Date.now() + 3600_000).toISOString();
    const pairs = channelIds.flatMap((channelId) => postIds.map((postId) => ({ postId, channelId })));
    console.log(`bench: creating ${pairs.length} publications …`);
    for (let i = 0; i < pairs.length; i += 16) {
      await Promise.all(
        pairs
          .slice(i, i + 16)
          .map(({ postId, channelId }) =>
            call(`/api/posts/${postId}/publications`, { channelId, publishAt: hourAhead }),
          ),
      );
    }
    const sql = postgres(app.databaseUrl as string, { max: 2, onnotice: () => {} });
    console.log("bench: starting two workers …");
    for (let i = 0; i < 2; i++) {
      const worker = startWorkerProcess({
        DATABASE_URL: app.databaseUrl,
        DATA_DIR: app.dataDir,
        WORKER: "inline",
        ...env,
      });
      workers.push(worker);
    }
    while (workers.some((w) => w.events("worker_ready").length === 0)) {
      if (workers.some((w) => w.child.exitCode !== null))
        throw new Error(`A worker did not start:\n${workers.map((w) => w.logs()).join("\n")}`);
      await sleep(200);
    }
    await sleep(3000);
    const limitedChat = chats[0];
    telegram.behavior.sendLatencyMs = Number(option("latency-ms", "50"));
    telegram.behavior.chatLimit = { messages: limitMessages, perSeconds: limitSeconds };
    telegram.behavior.limitedChats = { [String(limitedChat)]: 10 };
    const loadBefore = os.loadavg();
    const cpuBefore = workers.map((w) => cpuMs(w.pid));
    const due = new Date(Date.now() + 2000);
    await sql`update publications set publish_at = ${due} where brand_id = ${brandId}`;
    await sql`update pgboss.job set start_after = ${due} where name = 'publish' and state = 'created'`;
    const t = due.getTime();
    setTimeout(
      () => {
        telegram.behavior.limitedChats = {};
      },
      t + limitedSeconds * 1000 - Date.now(),
    );
    console.log(`bench: ${pairs.length} publications due at ${due.toISOString()}`);
    const deadline = t + 180_000;
    let settled = 0;
    while (Date.now() < deadline) {
      await sleep(1000);
      [{ settled }] = await sql<{ settled: number }[]>`
        select count(*)::int as settled from publications
        where brand_id = ${brandId} and status in ('published', 'failed', 'canceled')`;
      if (settled === pairs.length) break;
    }
    const loadAfter = os.loadavg();
    // CPU the two workers spent (on a shared machine steadier than wall time; PostgreSQL's is not in it).
    const workerCpu = workers.reduce((sum, w, i) => sum + cpuMs(w.pid) - cpuBefore[i], 0);
    const statuses = await sql<{ status: string; n: number }[]>`
      select status, count(*)::int as n from publications where brand_id = ${brandId} group by status`;
    await sql.end();

    const seen = new Map<string, number>();
    const lateness: number[] = [];
    const othersLateness: number[] = [];
    const limitedLateness: number[] = [];
    for (const message of telegram.messages) {
      const key = `${message.chatId}:${postOf.get(message.text) ?? message.text}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const late = (message.at - t) / 1000;
      lateness.push(late);
      (message.chatId === limitedChat ? limitedLateness : othersLateness).push(late);
    }
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    const sends = telegram.calls.filter((c) => c.chatId !== undefined);
    const limitedSends = sends.filter((c) => c.chatId === limitedChat);
    const fmt = (values: number[]) =>
      values.length
        ? `p50 ${percentile(values, 0.5).toFixed(1)} s, p95 ${percentile(values, 0.95).toFixed(1)} s, max ${Math.max(...values).toFixed(1)} s`
        : "none";
    console.log(
      [
        `nine o'clock: ${pairs.length} publications (${postCount} posts × ${channelCount} Telegram channels), two worker processes, PostgreSQL`,
        `fake: ${telegram.behavior.sendLatencyMs} ms a send, ${limitMessages} sends a chat per ${limitSeconds} s, one chat 429 (retry_after 10) for ${limitedSeconds} s`,
        `load average ${loadBefore.map((n) => n.toFixed(1)).join(" ")} → ${loadAfter.map((n) => n.toFixed(1)).join(" ")}, ${os.cpus().length} cores`,
        `worker CPU ${(workerCpu / 1000).toFixed(1)} s in all, ${(workerCpu / pairs.length).toFixed(1)} ms per publication`,
        `settled ${settled}/${pairs.length}: ${statuses.map((s) => `${s.status} ${s.n}`).join(", ")}`,
        `messages at the fake ${telegram.messages.length} (distinct ${seen.size}), duplicates ${duplicates}`,
        `lateness, all: ${fmt(lateness)} (goal: max ≤ 60 s, p95 ≤ 20 s)`,
        `lateness, the ${channelCount - 1} channels not held: ${fmt(othersLateness)}`,
        `lateness, the limited channel (released after ${limitedSeconds} s): ${fmt(limitedLateness)}`,
        `send calls ${sends.length} (429: ${sends.filter((c) => c.status === 429).length}); to the limited channel ${limitedSends.length} (429: ${limitedSends.filter((c) => c.status === 429).length})`,
      ].join("\n"),
    );
  } finally {
    await stopAll();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
