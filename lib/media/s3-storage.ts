import fs from "node:fs";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Env } from "@/lib/config";
import { assertSafeKey, contentTypeOf } from "./media-key";
import { MediaNotFoundError, type MediaStorage } from "./media-storage";
import { mediaUrlWindow } from "./media-url-lifetime";

type S3Env = Pick<
  Env,
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_BUCKET"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
>;

/** 5 MiB parts (S3's smallest), two in flight: memory stays bounded whatever the size of the file. */
const PART_SIZE = 5 * 1024 * 1024;

function isNotFound(error: unknown) {
  return (
    error instanceof S3ServiceException &&
    (error.name === "NotFound" || error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404)
  );
}

export function makeS3Client(env: S3Env) {
  return new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
    // Only what S3 requires: other S3-compatible stores do not all know the newer checksum headers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** An S3-compatible bucket (AWS S3, MinIO, R2, …). Browsers fetch files at presigned GET URLs. */
export function s3MediaStorage(env: S3Env, client = makeS3Client(env)): MediaStorage {
  const Bucket = env.S3_BUCKET;
  if (!Bucket) throw new Error("MEDIA_STORE=s3 needs S3_BUCKET.");
  const objectKey = (key: string) => {
    assertSafeKey(key);
    return key;
  };

  async function keysUnder(prefix: string) {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: `${prefix}/`, ContinuationToken }),
      );
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys;
  }

  return {
    kind: "s3",
    async put(key, source, contentType) {
      // An S3 object appears whole when its upload completes, never half written.
      const Body = typeof source === "string" ? fs.createReadStream(source) : source;
      const upload = new Upload({
        client,
        params: { Bucket, Key: objectKey(key), Body, ContentType: contentType ?? contentTypeOf(key) },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    },
    async read(key, range) {
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        if (!(object.Body instanceof Readable)) throw new Error("The S3 client did not return a stream.");
        return object.Body;
      } catch (error) {
        if (isNotFound(error)) throw new MediaNotFoundError(key);
        throw error;
      }
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return {
          size: head.ContentLength ?? 0,
          modifiedAt: head.LastModified ?? new Date(0),
          contentType: head.ContentType ?? contentTypeOf(key),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async remove(prefix) {
      const keys = [objectKey(prefix), ...(await keysUnder(prefix))];
      // One DELETE per object: DeleteObjects needs Content-MD5, which not every S3-compatible store takes.
      for (const Key of keys) await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
    async signedUrl(key) {
      const { signedAt, ttlSeconds } = mediaUrlWindow();
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: objectKey(key) }), {
        expiresIn: ttlSeconds,
        signingDate: new Date(signedAt * 1000),
      });
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
