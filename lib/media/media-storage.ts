import type { Readable } from "node:stream";

/** What put() stores: a file on this host (its path), a stream, or a few bytes already in memory. */
export type MediaSource = string | Readable | Uint8Array;
export type ByteRange = { start: number; end: number };
export type MediaStat = { size: number; modifiedAt: Date; contentType: string };

/**
 * Where media files live: a local folder (one host) or an S3-compatible bucket (any number of hosts).
 * Keys are relative paths such as `videos/vjb_…/video.mp4`. Files are streamed both ways, never held
 * whole in memory, and nothing outside an adapter knows where or how they are kept.
 */
export interface MediaStorage {
  readonly kind: "local" | "s3";
  /** Stores the file under the key, replacing any; a reader never sees half a file. */
  put(key: string, source: MediaSource, contentType?: string): Promise<void>;
  /** The file's bytes, or the inclusive byte range of them. Rejects with MediaNotFoundError. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<MediaStat | null>;
  /** Removes the key and everything under `prefix/`. */
  remove(prefix: string): Promise<void>;
  /** A URL a browser may fetch the file at (with Range), which expires (MEDIA_URL_TTL_SECONDS). */
  signedUrl(key: string): Promise<string>;
  /** Throws unless the store answers a real request now (readiness). */
  check(): Promise<void>;
}

export class MediaNotFoundError extends Error {
  constructor(key: string) {
    super(`No media file at ${key}.`);
    this.name = "MediaNotFoundError";
  }
}
