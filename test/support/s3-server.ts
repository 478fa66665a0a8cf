import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./test-server";

export type S3Server = {
  endpoint: string;
  bucket: string;
  /** The variables that point the app at this server (MEDIA_STORE=s3 and the S3_* names). */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

// s3rver in a process of its own, as a real store would be: its memory and CPU are not the test's.
const RUN_S3RVER = `
const S3rver = require("s3rver");
const [port, directory, bucket] = process.argv.slice(1);
new S3rver({ address: "127.0.0.1", port: Number(port), silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] })
  .run()
  .then(() => console.log("ready"), (error) => { console.error(error); process.exit(1); });
`;

/** A real S3-compatible server (s3rver) on a free loopback port, with one empty bucket, in its own folder. */
export async function startS3Server(bucket = "brand-studio-media"): Promise<S3Server> {
  const port = await freePort();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "bs-s3-"));
  const child = spawn(process.execPath, ["-e", RUN_S3RVER, String(port), directory, bucket], {
    cwd: path.resolve(__dirname, "..", ".."),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("ready")) resolve();
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`s3rver exited with ${code}: ${output}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped = false;
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORE: "s3",
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: bucket,
      // s3rver's fixed development credentials.
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
