import { describe, expect, it } from "vitest";
import { throttleLatest } from "@/lib/posts/partial-throttle";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a streamed draft's partials", () => {
  it("go out first at once, then only the latest of each wait", async () => {
    const sent: number[] = [];
    const partials = throttleLatest((value: number) => sent.push(value), 30);
    partials.push(1);
    partials.push(2);
    partials.push(3);
    expect(sent).toEqual([1]);
    await wait(80);
    expect(sent).toEqual([1, 3]);
    partials.push(4);
    partials.flush();
    expect(sent).toEqual([1, 3, 4]);
  });

  it("forget what waits when an attempt starts over", async () => {
    const sent: string[] = [];
    const partials = throttleLatest((value: string) => sent.push(value), 30);
    partials.push("first attempt");
    partials.push("first attempt, more");
    partials.drop();
    await wait(80);
    partials.flush();
    expect(sent).toEqual(["first attempt"]);
  });
});
