import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { freePort } from "./test-server";

export type S3Server = {
  endpoint: string;
  bucket: string;
  /** The variables that point the app at this server (MEDIA_STORE=s3 and the S3_* names). */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

/** A real S3-compatible server (s3rver) on a free loopback port, with one empty bucket, in its own folder. */
export async function startS3Server(bucket = "brand-studio-media"): Promise<S3Server> {
  const port = await freePort();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "bs-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
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
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
