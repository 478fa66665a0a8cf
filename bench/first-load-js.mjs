// First-load JS of a page: every <script src> its HTML loads, fetched and gzipped, summed.
// Usage: node bench/first-load-js.mjs http://127.0.0.1:3000 /api-docs /api-docs/get-brand
import { gzipSync } from "node:zlib";

const [base, ...pages] = process.argv.slice(2);
for (const page of pages) {
  const html = await (await fetch(new URL(page, base))).text();
  const sources = [...new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]))];
  let raw = 0;
  let gzip = 0;
  let drizzle = false;
  for (const source of sources) {
    const text = await (await fetch(new URL(source.replaceAll("&amp;", "&"), base))).text();
    raw += Buffer.byteLength(text);
    gzip += gzipSync(text).length;
    if (/password_hash|PgTable|drizzle/i.test(text)) drizzle = true;
  }
  console.log(
    `${page}\tscripts ${sources.length}\traw ${(raw / 1024).toFixed(1)} kB\tgzip ${(gzip / 1024).toFixed(1)} kB\tdrizzle/password_hash in client JS: ${drizzle}`,
  );
}
