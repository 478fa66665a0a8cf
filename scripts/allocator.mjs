// The memory allocator a server process runs with: settings of the C library, read only when a process starts,
// so scripts/start.mjs re-executes itself once with them (bench/servers.ts starts its servers with the same).
import fs from "node:fs";

const TRIPLETS = { x64: "x86_64-linux-gnu", arm64: "aarch64-linux-gnu" };

/** jemalloc 5 where Debian, Ubuntu, Fedora or Alpine install it (package libjemalloc2 / jemalloc), or null. */
export function findJemalloc() {
  if (process.platform !== "linux") return null;
  const triplet = TRIPLETS[process.arch];
  const candidates = [
    triplet && `/usr/lib/${triplet}/libjemalloc.so.2`,
    "/usr/lib64/libjemalloc.so.2",
    "/usr/lib/libjemalloc.so.2",
    "/usr/local/lib/libjemalloc.so.2",
  ];
  return candidates.find((file) => file && fs.existsSync(file)) ?? null;
}

/**
 * What the environment lacks (an empty object when nothing). glibc's allocator keeps what a burst freed:
 * a PGlite server held 327 MB idle, and about 100 MB of it was free memory in malloc's arenas (malloc_trim gave
 * it back). jemalloc returns freed pages to the system after ten seconds (its background thread, so an idle
 * server does too): 251 MB idle in the same run (bench/notes.md, "Idle RSS and the allocator"). sharp, which
 * recommends it, also draws with every core under jemalloc, where under glibc it keeps to one thread.
 * Without jemalloc, glibc with two arenas: sharp's threads otherwise each keep their own (447 against 334 MB
 * idle after 1,000 drafts). An LD_PRELOAD the environment already sets, even to nothing, is left as it is.
 */
export function allocatorEnv(env, jemalloc = findJemalloc()) {
  const missing = {};
  if (env.LD_PRELOAD === undefined && jemalloc) {
    missing.LD_PRELOAD = jemalloc;
    if (env.MALLOC_CONF === undefined) missing.MALLOC_CONF = "background_thread:true";
  }
  if (env.MALLOC_ARENA_MAX === undefined) missing.MALLOC_ARENA_MAX = "2";
  return missing;
}
