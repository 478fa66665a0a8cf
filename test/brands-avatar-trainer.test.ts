import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import { brands } from "@/db/schema";
import { newAvatarImageKey } from "@/lib/avatars/avatar-keys";
import { giveUpAvatarTraining, trainAvatar } from "@/lib/avatars/avatar-training";
import { detectImageFormat, normalizeAvatarImage } from "@/lib/brands/avatar-image";
import { newId } from "@/lib/ids";
import { getMediaStorage } from "@/lib/media/storage";
import { migrateInProcess } from "./support/database";
import { makeImage } from "./support/images";
import { createTestDatabase } from "./support/test-server";

// The trainer runs in this process against its own data folder and, on a PostgreSQL run, its own database.
const originalEnv = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bs-trainer-"));
  if (originalEnv.DATABASE_URL) {
    const database = await createTestDatabase(originalEnv.DATABASE_URL);
    process.env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  await migrateInProcess();
});

afterAll(async () => {
  await closeDatabase();
  await dropDatabase?.();
  fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  process.env.DATA_DIR = originalEnv.DATA_DIR;
  process.env.DATABASE_URL = originalEnv.DATABASE_URL;
});

/** A brand in the middle of training an upload that is already in media storage. */
async function brandTraining(image: Buffer) {
  const db = await getDb();
  const brandId = newId("brd");
  const imageKey = newAvatarImageKey(brandId, "png");
  await getMediaStorage().put(imageKey, image);
  await db.insert(brands).values({
    id: brandId,
    name: "Trainer test",
    avatarStatus: "training",
    avatarImageKey: imageKey,
    avatarTrainingEndsAt: new Date(Date.now() + 10_000),
  });
  return { brandId, imageKey };
}

async function readBrand(brandId: string) {
  const [brand] = await (await getDb()).select().from(brands).where(eq(brands.id, brandId));
  return brand;
}

describe("image checks", () => {
  it("tells PNG, JPEG and WebP by their bytes, and nothing else", async () => {
    expect(detectImageFormat(await makeImage({ format: "png" }))).toBe("png");
    expect(detectImageFormat(await makeImage({ format: "jpeg" }))).toBe("jpeg");
    expect(detectImageFormat(await makeImage({ format: "webp" }))).toBe("webp");
    const gif = await sharp(await makeImage())
      .gif()
      .toBuffer();
    expect(detectImageFormat(gif)).toBeNull();
    expect(detectImageFormat(Buffer.from("RIFF0000WAVEfmt "))).toBeNull();
    expect(detectImageFormat(Buffer.from([0x89, 0x50]))).toBeNull();
  });

  it("applies the EXIF orientation before dropping the metadata", async () => {
    // Orientation 6: the camera was turned, so a 400×300 sensor image is shown 300×400.
    const rotated = await sharp(await makeImage({ format: "jpeg", width: 400, height: 300 }))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const normalized = await normalizeAvatarImage(rotated);
    expect(normalized).toMatchObject({ format: "jpeg", width: 300, height: 400 });
    const metadata = await sharp(normalized.data).metadata();
    expect(metadata.orientation).toBeUndefined();
    expect(metadata.exif).toBeUndefined();
  });

  it("shrinks a very large image to at most 2048 pixels a side", async () => {
    const normalized = await normalizeAvatarImage(await makeImage({ width: 3000, height: 1500 }));
    expect(normalized).toMatchObject({ width: 2048, height: 1024 });
  });
});

describe("the local trainer", () => {
  it("prepares the frame and sets ready, clearing the estimate", async () => {
    const job = await brandTraining(await makeImage({ width: 300, height: 900 }));
    expect(await trainAvatar(job)).toBe("ready");
    const brand = await readBrand(job.brandId);
    expect(brand).toMatchObject({ avatarStatus: "ready", avatarError: null, avatarTrainingEndsAt: null });
    expect(brand.avatarFramesKey).toBe(job.imageKey.replace(/image\.png$/, "frame.png"));
    const frame = await buffer(await getMediaStorage().read(brand.avatarFramesKey ?? ""));
    expect(await sharp(frame).metadata()).toMatchObject({
      format: "png",
      width: 512,
      height: 512,
      hasAlpha: true,
    });
  });

  it("leaves a brand alone when a newer upload replaced the one the job was for", async () => {
    const job = await brandTraining(await makeImage());
    const newer = newAvatarImageKey(job.brandId, "png");
    await (await getDb()).update(brands).set({ avatarImageKey: newer }).where(eq(brands.id, job.brandId));

    expect(await trainAvatar(job)).toBe("superseded");
    await giveUpAvatarTraining(job);
    const brand = await readBrand(job.brandId);
    expect(brand).toMatchObject({ avatarStatus: "training", avatarImageKey: newer, avatarFramesKey: null });
  });

  it("throws when the upload cannot be read, so the queue retries the job", async () => {
    const job = await brandTraining(await makeImage());
    await getMediaStorage().remove(job.imageKey);
    await expect(trainAvatar(job)).rejects.toThrow();
    expect((await readBrand(job.brandId)).avatarStatus).toBe("training");
  });

  it("marks the avatar failed with a reason when the job has used up its retries", async () => {
    const job = await brandTraining(await makeImage());
    await giveUpAvatarTraining(job);
    const brand = await readBrand(job.brandId);
    expect(brand).toMatchObject({
      avatarStatus: "failed",
      avatarFramesKey: null,
      avatarTrainingEndsAt: null,
    });
    expect(brand.avatarError).toMatch(/Upload the image again/);
  });
});
