import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { config } from "@/lib/config";

/**
 * Where media files live. The local folder is the default; an S3-compatible adapter implements the same
 * interface. Keys are relative paths such as `videos/vjb_…/video.mp4`, with random ids in them, so a
 * media URL cannot be guessed.
 */
export interface MediaStorage {
  put(key: string, source: Buffer | string): Promise<void>;
  stat(key: string): Promise<{ size: number; modifiedAt: Date } | null>;
  read(key: string, range?: { start: number; end: number }): Readable;
  remove(prefix: string): Promise<void>;
  /** A local path for tools like ffmpeg, when the storage is a local folder. */
  localPath(key: string): string;
}

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export function assertSafeKey(key: string) {
  if (!SAFE_KEY.test(key) || key.split("/").some((part) => part === "..")) {
    throw new Error(`Unsafe media key: ${key}`);
  }
}

export function localMediaStorage(root = path.join(config.dataDir, "media")): MediaStorage {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, source) {
      const target = resolve(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temp = `${target}.${process.pid}.tmp`;
      if (typeof source === "string") await fs.promises.copyFile(source, temp);
      else await fs.promises.writeFile(temp, source);
      await fs.promises.rename(temp, target);
    },
    async stat(key) {
      try {
        const stats = await fs.promises.stat(resolve(key));
        return stats.isFile() ? { size: stats.size, modifiedAt: stats.mtime } : null;
      } catch {
        return null;
      }
    },
    read(key, range) {
      return fs.createReadStream(resolve(key), range);
    },
    async remove(prefix) {
      await fs.promises.rm(resolve(prefix), { recursive: true, force: true });
    },
    localPath: resolve,
  };
}

export function getMediaStorage(): MediaStorage {
  return localMediaStorage();
}

/** The public URL the app serves a media key at (see app/media/[...key]/route.ts). */
export function mediaUrl(key: string) {
  assertSafeKey(key);
  return `/media/${key}`;
}
