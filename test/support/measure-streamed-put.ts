/**
 * Run as `node --expose-gc --import tsx test/support/measure-streamed-put.ts <kind> <json>`: stores a
 * 50 MB stream with a media store adapter, reads it back, and prints the peak of memory held in buffers
 * over the run (sampled after a garbage collection, so only what is really held counts) and whether the
 * bytes came back the same. A process of its own, so nothing else's buffers are counted.
 */
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { localMediaStorage } from "@/lib/media/local-storage";
import { s3MediaStorage } from "@/lib/media/s3-storage";

const SIZE = 50 * 1024 * 1024;
const CHUNK = 1024 * 1024;

async function main() {
  const [kind, json] = process.argv.slice(2);
  const options = JSON.parse(json);
  const store = kind === "s3" ? s3MediaStorage(options) : localMediaStorage(options.root);
  const gc = (globalThis as unknown as { gc: () => void }).gc;
  const chunk = randomBytes(CHUNK);
  const expected = createHash("sha256");
  for (let sent = 0; sent < SIZE; sent += CHUNK) expected.update(chunk);
  async function* chunks() {
    for (let sent = 0; sent < SIZE; sent += CHUNK) yield Buffer.from(chunk);
  }
  gc();
  const before = process.memoryUsage().arrayBuffers;
  let peak = 0;
  const sample = () => {
    gc();
    peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
  };
  const sampler = setInterval(sample, 100);
  const key = `videos/vjb_${randomBytes(6).toString("hex")}/video.mp4`;
  await store.put(key, Readable.from(chunks()));
  const actual = createHash("sha256");
  for await (const part of await store.read(key)) actual.update(part);
  clearInterval(sampler);
  const stat = await store.stat(key);
  await store.remove(key.replace(/\/video\.mp4$/, ""));
  console.log(
    JSON.stringify({
      peak,
      size: stat?.size,
      same: actual.digest("hex") === expected.digest("hex"),
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
