import http from "node:http";
import type { AddressInfo } from "node:net";
import { startFakeOpenAI } from "../test/support/fake-openai";

/**
 * The tests' OpenAI fake in a process of its own, for bench/slow-model.ts: in the bench's process, its timers
 * writing fifty first tokens shared one event loop with the client reading them, and that queue showed up in
 * the measured gap (20–27 ms at p95 for the trivial app). A control server beside it sets the pace and hands
 * over when each stream's first token was written, as epoch milliseconds (`performance.timeOrigin` + now), so
 * the client can compare them with its own. Prints `{ url, control }` as one JSON line once both listen.
 */
async function main() {
  const fake = await startFakeOpenAI();
  const control = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.url === "/pace" && req.method === "POST") {
        fake.reset();
        fake.state.pace = JSON.parse(body);
        return res.writeHead(204).end();
      }
      if (req.url === "/first-tokens") {
        const tokens = fake.firstTokens.map(({ topic, at }) => ({ topic, at: performance.timeOrigin + at }));
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(tokens));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const { port } = control.address() as AddressInfo;
  console.log(JSON.stringify({ url: fake.url, control: `http://127.0.0.1:${port}` }));
  process.on("SIGTERM", () => process.exit(0));
}

main();
