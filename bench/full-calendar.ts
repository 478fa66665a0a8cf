import postgres from "postgres";
import { newUser } from "../test/support/auth";
import type { startFakeTelegram } from "../test/support/fake-telegram";

const DAY = 86_400_000;

/**
 * Issue 44's "a full calendar", seeded into a running app on PostgreSQL (bench/pages.ts and
 * bench/pages-profile.ts): a new user and brand with four Telegram channels (through the fake), `count`
 * publications this month (a post for every four, published before now and scheduled after), and a year of
 * results (a post a day, a daily capture of three metrics since, the channels' follower counts).
 */
export async function seedFullCalendar(
  app: { url: string; databaseUrl?: string },
  telegram: Awaited<ReturnType<typeof startFakeTelegram>>,
  count: number,
) {
  const user = await newUser(app.url);
  const call = async (p: string, body: unknown) => {
    const response = await fetch(`${app.url}${p}`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status >= 300)
      throw new Error(`POST ${p} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const { brandId } = await call("/api/brands", { name: "Full Calendar", tone: "warm", voice: "short" });
  const bot = telegram.addBot("full_calendar_bot");
  const channelIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    const chat = telegram.addChannel({ title: `Channel ${i + 1}`, admins: [{ token: bot }] });
    channelIds.push(
      (await call("/api/channels", { brandId, channel: "telegram", botToken: bot, chatId: String(chat) }))
        .channelId,
    );
  }

  console.log(`bench: seeding ${count} publications this month and a year of results …`);
  const sql = postgres(app.databaseUrl as string, { max: 1, onnotice: () => {} });
  const now = new Date();
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const words = "fresh roast crema harbour morning oven beans crust rye espresso cardamom bun";
  // The calendar: a post for every four publications, each on the four channels, spread over 28 days.
  await sql`
    insert into posts (id, group_id, brand_id, channel, goal, topic, caption, media_plan, hashtags, status, seed, provider, model, latency_ms)
    select 'pst_cal' || i, 'pst_cal' || i, ${brandId}, 'telegram', 'announcement', '',
      'Post ' || i || ': ' || ${words}, '{"format":"text_only","items":[]}', '[]', 'scheduled', 1, 'bench', 'bench', 1
    from generate_series(1, ${Math.ceil(count / 4)}) i`;
  await sql`
    insert into publications (id, brand_id, post_id, channel_id, channel, status, publish_at, published_at, created_at, updated_at)
    select 'pub_cal' || n, ${brandId}, 'pst_cal' || (n / 4 + 1), (${sql.array(channelIds)}::text[])[n % 4 + 1], 'telegram',
      case when t < now() then 'published' else 'scheduled' end, t, case when t < now() then t end, now(), now()
    from (select n, ${new Date(monthStart)}::timestamptz + ((n::bigint * 28 * 86400 / ${count}) || ' seconds')::interval
            + ((n % 12) || ' hours')::interval as t
          from generate_series(0, ${count - 1}) n) s`;
  // A year of results: a post a day, each measured daily since.
  const yearStart = new Date(now.getTime() - 365 * DAY);
  await sql`
    insert into posts (id, group_id, brand_id, channel, goal, topic, caption, media_plan, hashtags, status, seed, provider, model, latency_ms)
    select 'pst_yr' || d, 'pst_yr' || d, ${brandId}, 'telegram', 'awareness', 'Year post ' || d, 'Year post ' || d,
      '{"format":"text_only","items":[]}', '[]', 'published', 1, 'bench', 'bench', 1
    from generate_series(0, 364) d`;
  await sql`
    insert into publications (id, brand_id, post_id, channel_id, channel, status, publish_at, published_at, external_id, created_at, updated_at)
    select 'pub_yr' || d, ${brandId}, 'pst_yr' || d, (${sql.array(channelIds)}::text[])[d % 4 + 1], 'telegram', 'published',
      ${yearStart}::timestamptz + (d || ' days')::interval, ${yearStart}::timestamptz + (d || ' days')::interval, 'y' || d, now(), now()
    from generate_series(0, 364) d`;
  await sql`
    insert into publication_metrics (publication_id, metric, value, captured_at)
    select p.id, m, (extract(epoch from c)::bigint % 997) + 10, c
    from publications p, unnest(array['views', 'reach', 'interactions']) m,
         generate_series(p.published_at + interval '1 hour', now(), interval '1 day') c
    where p.brand_id = ${brandId} and p.id like 'pub_yr%'`;
  await sql`
    insert into publication_metric_latest (publication_id, brand_id, metric, value, captured_at)
    select p.id, ${brandId}, m, 100 + length(p.id), now()
    from publications p, unnest(array['views', 'reach', 'interactions']) m
    where p.brand_id = ${brandId} and p.id like 'pub_yr%'`;
  await sql`
    insert into channel_follower_counts (channel_id, brand_id, day, count, captured_at)
    select c, ${brandId}, d::date, 1000 + (extract(doy from d)::int * 3), d
    from unnest(${sql.array(channelIds)}::text[]) c, generate_series(${yearStart}::timestamptz, now(), interval '1 day') d`;
  await sql`analyze`;
  await sql.end();

  const signIn = async (request: import("@playwright/test").APIRequestContext) => {
    const csrf = await (await request.get(`${app.url}/api/auth/csrf`)).json();
    const response = await request.post(`${app.url}/api/auth/callback/credentials`, {
      form: { csrfToken: csrf.csrfToken, email: user.email, password: user.password, json: "true" },
      maxRedirects: 0,
    });
    if (response.status() >= 400) throw new Error(`Sign-in answered ${response.status()}`);
  };
  return { brandId: brandId as string, signIn };
}
