import "server-only";
import { getDatabase } from "@/db/client";
import { log } from "@/lib/log";

/**
 * "This user's access changed": a membership was removed or its role changed, or the account was deleted;
 * and "this brand changed": any update of its row.
 * On PostgreSQL, triggers on brand_members and users (db/migrations/0005_teams.sql) send
 * `NOTIFY membership_changed, '<userId>'`, and one on brands (0009_brand_changed.sql)
 * `NOTIFY brand_changed, '<brandId>'`, when the change commits, whoever made it, and every process
 * listens. The service that made the change also calls `membershipChanged` or `brandChanged` itself, so its
 * own process drops the entry before it answers (and PGlite, one process, needs nothing more).
 * Per-process caches that answer for a user (the finished-job status cache, the brand cache) subscribe
 * here, and keep entries only while `membershipEventsReady()` (a change while the listening connection was
 * down is lost, so a reconnect empties them through `onReset`).
 */
const CHANNEL = "membership_changed";
const BRAND_CHANNEL = "brand_changed";

type Subscriber = {
  forUser: (userId: string) => void;
  forBrand?: (brandId: string) => void;
  onReset: () => void;
};
type EventsState = {
  subscribers: Set<Subscriber>;
  listening?: Promise<boolean>;
  ready: boolean;
  /** Bumped on every change heard; a read that started before one must not be cached. */
  generation: number;
};

const globalForEvents = globalThis as unknown as { brandStudioMembershipEvents?: EventsState };
globalForEvents.brandStudioMembershipEvents ??= { subscribers: new Set(), ready: false, generation: 0 };
const state: EventsState = globalForEvents.brandStudioMembershipEvents;

export function subscribeMembershipChanges(subscriber: Subscriber) {
  state.subscribers.add(subscriber);
}

/** Drops what this process cached for the user. */
export function membershipChanged(userId: string) {
  state.generation++;
  for (const subscriber of state.subscribers) subscriber.forUser(userId);
}

/** Drops what this process cached of the brand. */
export function brandChanged(brandId: string) {
  state.generation++;
  for (const subscriber of state.subscribers) subscriber.forBrand?.(brandId);
}

function reset() {
  state.generation++;
  for (const subscriber of state.subscribers) subscriber.onReset();
}

async function listen(): Promise<boolean> {
  const database = await getDatabase();
  if (database.kind === "pglite") return true;
  await database.sql.listen(CHANNEL, (userId) => membershipChanged(userId), reset);
  await database.sql.listen(BRAND_CHANNEL, (brandId) => brandChanged(brandId), reset);
  return true;
}

function startListening() {
  state.listening ??= listen()
    .then((ok) => {
      state.ready = ok;
      return ok;
    })
    .catch((error) => {
      log.warn("membership_events_listen_failed", { error });
      state.listening = undefined;
      return false;
    });
  return state.listening;
}

/** True once changes from every process are heard; starts listening on the first call. */
export function membershipEventsReady() {
  if (!state.ready) void startListening();
  return state.ready;
}

export function membershipGeneration() {
  return state.generation;
}
