/**
 * `node --conditions=react-server --import tsx bench/learning.ts [--pg <url>] [--posts 1000] [--n 200]
 * [--rounds 3]`: issue 41's goal, in this process (PGlite, or with --pg a PostgreSQL database of its own):
 * a brand with 1,000 measured LinkedIn posts; Generate post (the draft with the built-in model, then the
 * insert) with `learnFromResults: false`, with learning (the ranking cached, as most creates find it), and
 * with learning and the cache emptied before each create (the ranking's query every time). Interleaved
 * rounds, medians. The goal: ranking and examples add at most 5 ms to a create's p50. Prints the figures;
 * copy them to BENCHMARKS.md.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

function option(name: string, fallback: string) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main() {
  const pg = process.argv.includes("--pg")
    ? option("pg", "postgres://postgres@127.0.0.1:5432/postgres")
    : null;
  const name = `bs_bench_learning_${randomBytes(4).toString("hex")}`;
  const admin = pg ? postgres(pg, { max: 1, onnotice: () => {} }) : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-bench-learning-"));
  if (admin && pg) {
    await admin.unsafe(`create database ${name}`);
    const url = new URL(pg);
    url.pathname = `/${name}`;
    Object.assign(process.env, { DATABASE_URL: url.toString() });
  } else Reflect.deleteProperty(process.env, "DATABASE_URL");
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    NODE_ENV: "development",
    AUTH_SECRET: "bench-learning-secret-0123456789abcdef",
    LOG_LEVEL: "error",
  });
  Reflect.deleteProperty(process.env, "OPENAI_API_KEY");
  const { prepareDatabase } = await import("@/lib/server/prepare-database");
  await prepareDatabase({ seed: false });
  const { closeDatabase, getDb } = await import("@/db/client");
  const schema = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const { newId } = await import("@/lib/ids");
  const { seedMeasuredPosts } = await import("../test/support/measured-posts");
  const { generatePostDraft } = await import("@/lib/posts/generate-post-draft");
  const { forgetRankings } = await import("@/lib/insights/rank-posts");
  const db = await getDb();

  const userId = newId("usr");
  await db.insert(schema.users).values({ id: userId, email: `${userId}@bench.test`, name: "Bench" });
  const brandId = newId("brd");
  await db.insert(schema.brands).values({
    id: brandId,
    name: "Bench brand",
    tone: "warm",
    voice: "short sentences",
    timeZone: "Europe/Berlin",
  });
  const [brand] = await db.select().from(schema.brands).where(eq(schema.brands.id, brandId));
  const count = Number(option("posts", "1000"));
  await seedMeasuredPosts(
    brandId,
    "linkedin",
    Array.from({ length: count }, (_, i) => ({
      caption: `${i % 3 ? "Our roastery update." : "Ever tried a slow roast?"} ${"We work on every batch. ".repeat(1 + (i % 9))}`,
      hashtags: ["#Coffee", "#Roast", "#Beans"].slice(0, 1 + (i % 3)),
      ageHours: 49 + i * 3,
      reach: 500 + ((i * 7919) % 2000),
      interactions: 5 + ((i * 104_729) % 90),
    })),
  );

  const principal = { userId, credential: "access_token" as const };
  const create = async (i: number, learn: boolean) => {
    const started = performance.now();
    await generatePostDraft({
      principal,
      brand,
      input: {
        brandId,
        channel: "linkedin",
        goal: "awareness",
        topic: "our new Ethiopian single-origin espresso, roasted in small batches",
        seed: i,
        ...(learn ? {} : { learnFromResults: false }),
      },
    });
    return performance.now() - started;
  };
  // Warm up every path once (the built-in model, the prepared insert, the ranking's query).
  for (let i = 0; i < 20; i++) {
    await create(i, false);
    forgetRankings();
    await create(i, true);
  }

  const n = Number(option("n", "200"));
  const rounds = Number(option("rounds", "3"));
  const off: number[] = [];
  const cached: number[] = [];
  const cold: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < n; i++) {
      const seed = round * n + i;
      off.push(await create(seed, false));
      cached.push(await create(seed, true));
      forgetRankings();
      cold.push(await create(seed, true));
    }
  }
  const base = median(off);
  const fmt = (value: number) => value.toFixed(2);
  console.log(
    `learning: ${pg ? "PostgreSQL" : "PGlite"}, ${count} measured LinkedIn posts, ${rounds}×${n} creates each`,
  );
  console.log(`  create p50, learnFromResults false: ${fmt(base)} ms`);
  console.log(
    `  create p50, learning (ranking cached): ${fmt(median(cached))} ms (+${fmt(median(cached) - base)} ms)`,
  );
  console.log(
    `  create p50, learning (ranking read every time): ${fmt(median(cold))} ms (+${fmt(median(cold) - base)} ms)`,
  );
  console.log(
    `  machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, load ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" ")}`,
  );

  await closeDatabase();
  if (admin) {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
