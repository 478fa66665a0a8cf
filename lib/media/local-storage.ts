import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { config } from "@/lib/config";
import { signLocalMediaUrl } from "./local-signature";
import { assertSafeKey, contentTypeOf } from "./media-key";
import { MediaNotFoundError, type MediaStorage } from "./media-storage";
import { mediaUrlWindow } from "./media-url-lifetime";

/** Files under DATA_DIR/media, served by this app at HMAC-signed `/media/<key>` URLs. One host only. */
export function localMediaStorage(root = path.join(config.dataDir, "media")): MediaStorage {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    kind: "local",
    async put(key, source) {
      const target = resolve(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        // A file is copied in one call (the kernel's copy, a reflink where the file system has them).
        if (typeof source === "string") await fs.promises.copyFile(source, temp);
        else if (Buffer.isBuffer(source)) await fs.promises.writeFile(temp, source);
        else
          await pipeline(
            source instanceof Readable ? source : Readable.from([source]),
            fs.createWriteStream(temp),
          );
        await fs.promises.rename(temp, target);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    },
    async read(key, range) {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(resolve(key), "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new MediaNotFoundError(key);
        throw error;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    async stat(key) {
      try {
        const stats = await fs.promises.stat(resolve(key));
        return stats.isFile()
          ? { size: stats.size, modifiedAt: stats.mtime, contentType: contentTypeOf(key) }
          : null;
      } catch {
        return null;
      }
    },
    async remove(prefix) {
      await fs.promises.rm(resolve(prefix), { recursive: true, force: true });
    },
    async signedUrl(key) {
      assertSafeKey(key);
      return signLocalMediaUrl(key, mediaUrlWindow().expiresAt);
    },
    async check() {
      await fs.promises.mkdir(root, { recursive: true });
      await fs.promises.access(root, fs.constants.R_OK | fs.constants.W_OK);
    },
  };
}
