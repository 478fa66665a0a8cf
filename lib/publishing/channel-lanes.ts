import "server-only";

/**
 * A worker process's lanes, one per channel: a channel's publications run one at a time and in order (their
 * time, then their creation), and up to `maxLanes` channels run side by side; a channel over that waits for a
 * lane. Before each run the lane asks when its channel may be called (channel-backoff: a platform's 429, or
 * the pace it taught): a wait of at most `sleepUpToMs` is slept in the lane; one of at most `parkUpToMs`
 * parks the channel until then (its items given back with `park`, its lane free for another channel), and
 * the lane takes them again itself (`resume`), so the process that learned the channel's pace sends the
 * rest; a longer wait gives them back for good (`release`, due when the channel may be called). So nothing
 * waits behind a channel that is rate limited. A run may answer "again": the item was given back (a 429) and
 * is taken again first in its lane when its channel may be called. Pure scheduling: what a run, a park, a
 * resume and a release do is the caller's (publish-worker.ts).
 */
export type LaneItem = {
  /** The lane: the publication's channel (or the publication itself when it has none). */
  lane: string;
  channelId: string | null;
  /** The order within the lane: its time, then when it was made, then its id. */
  order: [number, number, string];
};

export type ChannelLanesOptions<T extends LaneItem> = {
  maxLanes: number;
  sleepUpToMs: number;
  parkUpToMs: number;
  waitsUntil: (channelId: string | null) => Date | null;
  run: (item: T) => Promise<"again" | undefined>;
  /** Gives the items back for good, due at `at`. */
  release: (items: T[], at: Date) => Promise<void>;
  /** Gives the items back while their channel waits until `at`; the lane takes them again then. */
  park: (items: T[], at: Date) => Promise<void>;
  /** Takes given-back items again: those it could (fresh), by their id (`order[2]`); the others are dropped. */
  resume: (items: T[]) => Promise<T[]>;
};

const before = (a: LaneItem["order"], b: LaneItem["order"]) =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createChannelLanes<T extends LaneItem>(options: ChannelLanesOptions<T>) {
  /** `held`: the item is this process's (claimed); false once given back to be taken again. */
  type Entry = { item: T; done: () => void; held: boolean };
  const queues = new Map<string, Entry[]>();
  const active = new Set<string>();
  const parked = new Map<string, NodeJS.Timeout>();
  const waitingForLane: string[] = [];
  let stopping = false;

  // A run or a release that throws has said so itself (the caller's); the lane goes on.
  const settle = async (entries: Entry[], work: () => Promise<void>) => {
    try {
      await work();
    } catch {
    } finally {
      for (const entry of entries) entry.done();
    }
  };

  /** Takes the given-back entries of the queue again; drops (done) those that could not be. */
  async function resume(queue: Entry[]) {
    const back = queue.filter((entry) => !entry.held);
    if (back.length === 0) return;
    let taken: T[] = [];
    try {
      taken = await options.resume(back.map((entry) => entry.item));
    } catch {}
    const byId = new Map(taken.map((item) => [item.order[2], item]));
    for (const entry of back) {
      const fresh = byId.get(entry.item.order[2]);
      if (fresh) {
        entry.item = fresh;
        entry.held = true;
      } else {
        queue.splice(queue.indexOf(entry), 1);
        entry.done();
      }
    }
  }

  /** Gives back for good what the queue holds (the given-back entries already have their jobs). */
  async function releaseAll(queue: Entry[], at: Date) {
    const entries = queue.splice(0);
    const held = entries.filter((entry) => entry.held);
    await settle(entries, () =>
      options.release(
        held.map((e) => e.item),
        at,
      ),
    );
  }

  async function drain(lane: string) {
    const queue = queues.get(lane) ?? [];
    while (queue.length > 0 && !stopping) {
      const at = options.waitsUntil(queue[0].item.channelId);
      if (at) {
        const ms = at.getTime() - Date.now();
        if (ms <= options.sleepUpToMs) {
          await sleep(Math.max(0, ms));
          continue;
        }
        if (ms <= options.parkUpToMs) {
          const held = queue.filter((entry) => entry.held);
          for (const entry of held) entry.held = false;
          try {
            await options.park(
              held.map((e) => e.item),
              at,
            );
          } catch {}
          const timer = setTimeout(
            () => {
              parked.delete(lane);
              waitingForLane.push(lane);
              startWaiting();
            },
            Math.max(0, at.getTime() - Date.now()),
          );
          timer.unref?.();
          parked.set(lane, timer);
          return;
        }
        await releaseAll(queue, at);
        continue;
      }
      if (!queue[0].held) {
        await resume(queue);
        continue;
      }
      const entry = queue.shift() as Entry;
      let again = false;
      try {
        again = (await options.run(entry.item)) === "again";
      } catch {}
      if (!again) entry.done();
      else if (stopping) entry.done();
      else {
        entry.held = false;
        queue.unshift(entry);
      }
    }
  }

  function startWaiting() {
    while (!stopping && active.size < options.maxLanes && waitingForLane.length > 0)
      start(waitingForLane.shift() as string);
  }

  function start(lane: string) {
    active.add(lane);
    void drain(lane)
      .catch(() => {})
      .finally(() => {
        active.delete(lane);
        if (!parked.has(lane)) {
          if ((queues.get(lane)?.length ?? 0) > 0) waitingForLane.push(lane);
          else queues.delete(lane);
        }
        startWaiting();
      });
  }

  return {
    /** Queues the item in its channel's lane; resolves once it ran or was given back (never rejects). */
    add(item: T): Promise<void> {
      return new Promise<void>((done) => {
        let queue = queues.get(item.lane);
        if (!queue) {
          queue = [];
          queues.set(item.lane, queue);
        }
        let index = queue.length;
        while (index > 0 && before(item.order, queue[index - 1].item.order)) index--;
        queue.splice(index, 0, { item, done, held: true });
        if (active.has(item.lane) || parked.has(item.lane) || waitingForLane.includes(item.lane)) return;
        // After what is added with it (a fetch's batch, added in one go): the lane starts at its first in order.
        waitingForLane.push(item.lane);
        queueMicrotask(startWaiting);
      });
    },
    /** The items queued, claimed and not yet running (their claims' leases are renewed meanwhile). */
    waiting(): T[] {
      return [...queues.values()].flatMap((queue) =>
        queue.filter((entry) => entry.held).map((entry) => entry.item),
      );
    },
    /** Items queued in lanes that are not parked: what the process has to run now. */
    ready(): number {
      let count = 0;
      for (const [lane, queue] of queues) if (!parked.has(lane)) count += queue.length;
      return count;
    },
    /** Channels running now. */
    running: () => active.size,
    /**
     * The process is stopping: no run starts any more, and every item queued is given back (due now, for the
     * workers that go on; a parked one already is, with its job). Resolves once they are.
     */
    async stop() {
      stopping = true;
      for (const timer of parked.values()) clearTimeout(timer);
      parked.clear();
      waitingForLane.length = 0;
      await releaseAll(
        [...queues.values()].flatMap((queue) => queue.splice(0)),
        new Date(),
      );
    },
    get stopping() {
      return stopping;
    },
  };
}
