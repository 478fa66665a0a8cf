import { describe, expect, it } from "vitest";
import { backOffChannel, channelWaitsUntil, noteChannelSend } from "@/lib/publishing/channel-backoff";
import { createChannelLanes, type LaneItem } from "@/lib/publishing/channel-lanes";

// The publish worker's scheduling on its own (lib/publishing/channel-lanes.ts and channel-backoff.ts): one
// run at a time per channel and in order, channels side by side up to the lane count, and a channel that must
// wait gives its queue back without holding up the others. The fake Telegram shows the same at the wire
// (publishing-rate-limit.test.ts).

type Item = LaneItem & { name: string };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const item = (channel: string, n: number): Item => ({
  lane: channel,
  channelId: channel,
  order: [1000 + n, 0, `${channel}-${n}`],
  name: `${channel}-${n}`,
});

function recordingLanes(
  maxLanes: number,
  held: Record<string, Date> = {},
  runMs = 30,
  again: (it: Item) => boolean = () => false,
  dropOnResume = new Set<string>(),
) {
  const events: { name: string; start: number; end: number }[] = [];
  const released: { names: string[]; at: Date }[] = [];
  const parkedNames: string[][] = [];
  const resumed: string[][] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const lanes = createChannelLanes<Item>({
    maxLanes,
    sleepUpToMs: 50,
    parkUpToMs: 500,
    waitsUntil: (channelId) => (channelId && held[channelId] > new Date() ? held[channelId] : null),
    async run(it) {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const start = Date.now();
      await sleep(runMs);
      inFlight--;
      events.push({ name: it.name, start, end: Date.now() });
      return again(it) ? "again" : undefined;
    },
    async release(items, at) {
      released.push({ names: items.map((i) => i.name), at });
    },
    async park(items) {
      parkedNames.push(items.map((i) => i.name));
    },
    async resume(items) {
      resumed.push(items.map((i) => i.name));
      return items.filter((i) => !dropOnResume.has(i.name));
    },
  });
  return { lanes, events, released, parkedNames, resumed, most: () => mostInFlight };
}

describe("channel lanes", () => {
  it("runs a channel's items one at a time in their order, and channels side by side up to the lane count", async () => {
    const { lanes, events, most } = recordingLanes(3);
    const items = ["a", "b", "c", "d", "e"].flatMap((channel) => [3, 1, 2].map((n) => item(channel, n)));
    await Promise.all(items.map((i) => lanes.add(i)));
    expect(events).toHaveLength(15);
    expect(most()).toBe(3);
    for (const channel of ["a", "b", "c", "d", "e"]) {
      const own = events.filter((e) => e.name.startsWith(`${channel}-`));
      expect(own.map((e) => e.name)).toEqual([`${channel}-1`, `${channel}-2`, `${channel}-3`]);
      for (let i = 1; i < own.length; i++) expect(own[i].start).toBeGreaterThanOrEqual(own[i - 1].end);
    }
    await sleep(10);
    expect(lanes.running()).toBe(0);
  });

  it("gives a held channel's queue back at once, while the other channels run", async () => {
    const until = new Date(Date.now() + 60_000);
    const { lanes, events, released } = recordingLanes(2, { held: until });
    const started = Date.now();
    await Promise.all([
      ...[1, 2, 3].map((n) => lanes.add(item("held", n))),
      ...[1, 2].map((n) => lanes.add(item("free", n))),
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(events.map((e) => e.name)).toEqual(["free-1", "free-2"]);
    expect(released).toEqual([{ names: ["held-1", "held-2", "held-3"], at: until }]);
  });

  it("parks a channel for a wait up to parkUpToMs, its lane free for another channel meanwhile, and takes its items again", async () => {
    const until = new Date(Date.now() + 300);
    const { lanes, events, released, parkedNames, resumed } = recordingLanes(
      1,
      { parked: until },
      30,
      () => false,
      new Set(["parked-2"]),
    );
    await Promise.all([
      ...[1, 2, 3].map((n) => lanes.add(item("parked", n))),
      ...[1, 2, 3].map((n) => lanes.add(item("other", n))),
    ]);
    expect(released).toEqual([]);
    expect(parkedNames).toEqual([["parked-1", "parked-2", "parked-3"]]);
    expect(resumed).toEqual([["parked-1", "parked-2", "parked-3"]]);
    // parked-2 could not be taken again (canceled meanwhile, say): it is not run.
    expect(events.map((e) => e.name)).toEqual(["other-1", "other-2", "other-3", "parked-1", "parked-3"]);
    expect(events[3].start).toBeGreaterThanOrEqual(until.getTime());
  });

  it("takes an item that answered again back first in its lane, once its channel may be called", async () => {
    const held: Record<string, Date> = {};
    let first = true;
    const { lanes, events, released, parkedNames, resumed } = recordingLanes(2, held, 10, (it) => {
      if (it.name !== "c-1" || !first) return false;
      first = false;
      held.c = new Date(Date.now() + 200);
      return true;
    });
    await Promise.all([1, 2, 3].map((n) => lanes.add(item("c", n))));
    expect(released).toEqual([]);
    // c-1 was given back by its run; c-2 and c-3 by the park; all three are taken again.
    expect(parkedNames).toEqual([["c-2", "c-3"]]);
    expect(resumed).toEqual([["c-1", "c-2", "c-3"]]);
    expect(events.map((e) => e.name)).toEqual(["c-1", "c-1", "c-2", "c-3"]);
    expect(events[1].start).toBeGreaterThanOrEqual(held.c.getTime());
  });

  it("gives back what is queued when stopped (what is parked already is), and starts nothing more", async () => {
    const { lanes, events, released, parkedNames } = recordingLanes(
      1,
      { p: new Date(Date.now() + 400) },
      100,
    );
    const all = [
      ...[1, 2].map((n) => lanes.add(item("p", n))),
      ...[1, 2].map((n) => lanes.add(item("r", n))),
    ];
    await sleep(30);
    await lanes.stop();
    await Promise.all(all);
    expect(events.map((e) => e.name)).toEqual(["r-1"]);
    expect(parkedNames).toEqual([["p-1", "p-2"]]);
    expect(released.flatMap((r) => r.names)).toEqual(["r-2"]);
  });

  it("sleeps a short wait in the lane rather than giving the queue back", async () => {
    const { lanes, events, released } = recordingLanes(2, { soon: new Date(Date.now() + 40) });
    await lanes.add(item("soon", 1));
    expect(released).toEqual([]);
    expect(events.map((e) => e.name)).toEqual(["soon-1"]);
  });

  it("keeps the queued items (not the running one) in waiting()", async () => {
    const { lanes } = recordingLanes(1, {}, 100);
    const all = [1, 2, 3].map((n) => lanes.add(item("x", n)));
    await sleep(20);
    expect(
      lanes
        .waiting()
        .map((i) => i.name)
        .sort(),
    ).toEqual(["x-2", "x-3"]);
    await Promise.all(all);
    expect(lanes.waiting()).toEqual([]);
  });
});

describe("channel pace", () => {
  it("learns n sends per window from a 429 after n sends, and paces the channel to it", () => {
    const channel = `pace-${Math.random()}`;
    const now = Date.now();
    for (let i = 0; i < 10; i++) noteChannelSend(channel, now - 500 + i * 50);
    expect(channelWaitsUntil(channel)).toBeNull();
    // The 11th answered 429, retry after 10 s: the window is about 10.5 s and holds 10 sends.
    backOffChannel(channel, 10);
    const held = channelWaitsUntil(channel);
    expect(held?.getTime()).toBeGreaterThanOrEqual(now + 9_900);
    expect(held?.getTime()).toBeLessThanOrEqual(Date.now() + 10_000);
  });

  it("once the wait is over, allows the learned number of sends and then waits for the window", async () => {
    const channel = `pace-${Math.random()}`;
    for (let i = 0; i < 3; i++) noteChannelSend(channel);
    // 3 sends, then a 429 asking for 1 s: 3 sends per about 1 s.
    backOffChannel(channel, 1);
    expect(channelWaitsUntil(channel)).not.toBeNull();
    await sleep(1050);
    expect(channelWaitsUntil(channel)).toBeNull();
    noteChannelSend(channel);
    noteChannelSend(channel);
    expect(channelWaitsUntil(channel)).toBeNull();
    noteChannelSend(channel);
    const paced = channelWaitsUntil(channel);
    expect(paced).not.toBeNull();
    expect((paced as Date).getTime() - Date.now()).toBeGreaterThan(500);
  });

  it("a 429 with no send before it only holds the channel for its retry_after", () => {
    const channel = `pace-${Math.random()}`;
    backOffChannel(channel, 2);
    expect(channelWaitsUntil(channel)).not.toBeNull();
    expect(channelWaitsUntil(`${channel}-other`)).toBeNull();
  });
});
