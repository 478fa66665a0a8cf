import { getDatabase } from "@/db/client";
import { log } from "@/lib/log";

/**
 * A per-process cache of API key (its SHA-256 hash) → principal, so a poll does not read api_keys on every
 * request. An entry lives at most TTL_MS. A revoke drops the key at once in the process that revoked it
 * and, on PostgreSQL, in every other process through `NOTIFY api_key_revoked`. Entries are only kept while
 * this process is listening for those notifications (and the cache is emptied whenever the listening
 * connection is re-established, since notifications sent meanwhile are lost), so a revoke reaches every
 * process within one notification round trip, and TTL_MS bounds it even if a notification went astray.
 * PGlite is one process, so dropping locally is enough there.
 */
export const API_KEY_CACHE_TTL_MS = 30_000;
const CHANNEL = "api_key_revoked";
const MAX_ENTRIES = 10_000;

export type CachedKey = { keyId: string; userId: string; lastUsedAt: number | null; expiresAt: number };

type CacheState = {
  entries: Map<string, CachedKey>;
  /** Resolves true once revocations from other processes are heard (always true on PGlite). */
  listening?: Promise<boolean>;
  ready: boolean;
  /** Bumped on every revoke heard; a read that started before one is not cached (it may be stale). */
  generation: number;
};

const globalForKeys = globalThis as unknown as { brandStudioApiKeyCache?: CacheState };
globalForKeys.brandStudioApiKeyCache ??= { entries: new Map(), ready: false, generation: 0 };
const state: CacheState = globalForKeys.brandStudioApiKeyCache;

async function listen(): Promise<boolean> {
  const database = await getDatabase();
  if (database.kind === "pglite") return true;
  await database.sql.listen(
    CHANNEL,
    (keyId) => forgetApiKey(keyId),
    // Called on the first connect and on every reconnect: anything revoked in between went unheard.
    () => {
      state.generation++;
      state.entries.clear();
    },
  );
  return true;
}

function startListening() {
  if (!state.listening) {
    state.listening = listen()
      .then((ok) => {
        state.ready = ok;
        return ok;
      })
      .catch((error) => {
        log.warn("api_key_cache_listen_failed", { error });
        state.listening = undefined;
        return false;
      });
  }
  return state.listening;
}

export function cachedApiKey(hashedKey: string): CachedKey | undefined {
  const entry = state.entries.get(hashedKey);
  if (!entry) return undefined;
  if (entry.expiresAt <= Date.now()) {
    state.entries.delete(hashedKey);
    return undefined;
  }
  return entry;
}

/** Taken before reading a key from the database, and handed back to rememberApiKey. */
export function apiKeyCacheGeneration() {
  return state.generation;
}

/**
 * Keeps a key that was just read from the database, if revocations can be heard and none was heard since
 * the read began (`generation` from apiKeyCacheGeneration()).
 */
export function rememberApiKey(hashedKey: string, entry: Omit<CachedKey, "expiresAt">, generation: number) {
  if (!state.ready) {
    void startListening();
    return;
  }
  if (generation !== state.generation) return;
  if (state.entries.size >= MAX_ENTRIES) state.entries.clear();
  state.entries.set(hashedKey, { ...entry, expiresAt: Date.now() + API_KEY_CACHE_TTL_MS });
}

export function forgetApiKey(keyId: string) {
  state.generation++;
  for (const [hash, entry] of state.entries) if (entry.keyId === keyId) state.entries.delete(hash);
}

/** After a revoke has committed: drop the key here, and tell every other process on PostgreSQL. */
export async function announceApiKeyRevoked(keyId: string) {
  forgetApiKey(keyId);
  const database = await getDatabase();
  if (database.kind === "postgres") {
    try {
      await database.sql.notify(CHANNEL, keyId);
    } catch (error) {
      // Other processes still drop the key within API_KEY_CACHE_TTL_MS.
      log.warn("api_key_revoke_notify_failed", { keyId, error });
    }
  }
}
