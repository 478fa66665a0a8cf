import "server-only";
import type { Brand } from "@/db/schema";
import {
  membershipEventsReady,
  membershipGeneration,
  subscribeMembershipChanges,
} from "@/lib/auth/membership-events";
import type { BrandRole } from "@/lib/contracts/enums";

/**
 * A per-process cache of (user, brand) → the brand's row and the user's role, for Generate post, whose
 * brand read was a third of its database time. An entry is dropped at once, on every process, when the
 * brand's row changes or the user's membership does (lib/auth/membership-events.ts); entries are kept only
 * while this process hears those changes, and a read that a change overtook is not kept. TTL_MS bounds an
 * entry even if a notification went astray. Cached rows are frozen: callers share them.
 */
export const BRAND_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

export type MemberBrand = { brand: Brand; role: BrandRole };
type Entry = MemberBrand & { expiresAt: number };

const globalForBrands = globalThis as unknown as { brandStudioBrandCache?: Map<string, Entry> };

const keyOf = (userId: string, brandId: string) => `${userId}\u0000${brandId}`;

function entries() {
  if (!globalForBrands.brandStudioBrandCache) {
    const cache = new Map<string, Entry>();
    globalForBrands.brandStudioBrandCache = cache;
    subscribeMembershipChanges({
      forUser: (userId) => {
        const prefix = `${userId}\u0000`;
        for (const key of cache.keys()) if (key.startsWith(prefix)) cache.delete(key);
      },
      forBrand: (brandId) => {
        const suffix = `\u0000${brandId}`;
        for (const key of cache.keys()) if (key.endsWith(suffix)) cache.delete(key);
      },
      onReset: () => cache.clear(),
    });
  }
  return globalForBrands.brandStudioBrandCache;
}

export function cachedBrand(userId: string, brandId: string): MemberBrand | undefined {
  const cache = entries();
  const key = keyOf(userId, brandId);
  const entry = cache.get(key);
  if (!entry) return undefined;
  if (entry.expiresAt <= Date.now()) {
    cache.delete(key);
    return undefined;
  }
  return entry;
}

/** Taken before reading the brand, and handed back to rememberBrand. */
export const brandCacheGeneration = membershipGeneration;

/** Keeps a brand just read, if changes can be heard and none was heard since the read began. */
export function rememberBrand(userId: string, { brand, role }: MemberBrand, generation: number) {
  if (!membershipEventsReady() || generation !== membershipGeneration()) return;
  const cache = entries();
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  for (const value of Object.values(brand)) if (Array.isArray(value)) Object.freeze(value);
  cache.set(keyOf(userId, brand.id), {
    brand: Object.freeze(brand),
    role,
    expiresAt: Date.now() + BRAND_CACHE_TTL_MS,
  });
}
