import { describe, expect, it } from "vitest";
import { allocatorEnv } from "../scripts/allocator.mjs";

const JEMALLOC = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";

describe("the allocator npm start runs the server with (scripts/allocator.mjs)", () => {
  it("preloads jemalloc with its background purge, and limits glibc's arenas besides", () => {
    expect(allocatorEnv({}, JEMALLOC)).toEqual({
      LD_PRELOAD: JEMALLOC,
      MALLOC_CONF: "background_thread:true",
      MALLOC_ARENA_MAX: "2",
    });
  });

  it("without jemalloc, only limits glibc's arenas", () => {
    expect(allocatorEnv({}, null)).toEqual({ MALLOC_ARENA_MAX: "2" });
  });

  it("keeps what the environment sets: an LD_PRELOAD, even an empty one, turns the preload off", () => {
    expect(allocatorEnv({ LD_PRELOAD: "" }, JEMALLOC)).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(allocatorEnv({ MALLOC_CONF: "dirty_decay_ms:1000", MALLOC_ARENA_MAX: "4" }, JEMALLOC)).toEqual({
      LD_PRELOAD: JEMALLOC,
    });
  });

  it("asks for nothing once everything is set, so start.mjs re-executes itself only once", () => {
    const env = { PATH: "/usr/bin" };
    const once = { ...env, ...allocatorEnv(env, JEMALLOC) };
    expect(allocatorEnv(once, JEMALLOC)).toEqual({});
  });
});
