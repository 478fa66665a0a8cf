import "server-only";

/**
 * A worker process's lanes, one per channel: a channel's publications run one at a time and in order (their
 * time, then their creation), and up to `maxLanes` channels run side by side; a channel over that waits for a
 * lane. Before each run the lane asks when its channel may be called (channel-backoff: a platform's 429, or
 * the pace it taught): a wait of at most `sleepUpToMs` is slept in the lane; one of at most `parkUpToMs`
 * parks the channel (its claims kept, so no other worker calls it meanwhile, and its lane free for another
 * channel) until then; a longer one gives the channel's claims back (`release`, due when it may be called).
 * So nothing waits behind a channel that is rate limited. A run may answer "again": the item (still claimed)
 * goes back first in its lane, to run when its channel may be called. Pure scheduling: what a run and a
 * release do is the caller's (publish-worker.ts).
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
  release: (items: T[], at: Date) => Promise<void>;
};

const before = (a: LaneItem["order"], b: LaneItem["order"]) =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createChannelLanes<T extends LaneItem>(options: ChannelLanesOptions<T>) {
  type Entry = { item: T; done: () => void };
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
          const timer = setTimeout(() => {
            parked.delete(lane);
            waitingForLane.push(lane);
            startWaiting();
          }, ms);
          timer.unref?.();
          parked.set(lane, timer);
          return;
        }
        const held = queue.splice(0);
        await settle(held, () =>
          options.release(
            held.map((e) => e.item),
            at,
          ),
        );
        continue;
      }
      const entry = queue.shift() as Entry;
      let again = false;
      try {
        again = (await options.run(entry.item)) === "again";
      } catch {}
      if (!again) entry.done();
      else if (!stopping) queue.unshift(entry);
      else await settle([entry], () => options.release([entry.item], new Date()));
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
        queue.splice(index, 0, { item, done });
        if (active.has(item.lane) || parked.has(item.lane) || waitingForLane.includes(item.lane)) return;
        // After what is added with it (a fetch's batch, added in one go): the lane starts at its first in order.
        waitingForLane.push(item.lane);
        queueMicrotask(startWaiting);
      });
    },
    /** The items queued and not yet running, parked or not (their claims' leases are renewed meanwhile). */
    waiting(): T[] {
      return [...queues.values()].flatMap((queue) => queue.map((entry) => entry.item));
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
     * The process is stopping: no run starts any more, and every item queued or parked is given back (due
     * now, for the workers that go on). Resolves once they are.
     */
    async stop() {
      stopping = true;
      for (const timer of parked.values()) clearTimeout(timer);
      parked.clear();
      waitingForLane.length = 0;
      const entries = [...queues.values()].flatMap((queue) => queue.splice(0));
      await settle(entries, () =>
        options.release(
          entries.map((e) => e.item),
          new Date(),
        ),
      );
    },
    get stopping() {
      return stopping;
    },
  };
}
