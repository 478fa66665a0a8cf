/** 32-bit FNV-1a: a stable hash so the same brief always starts from the same variant. */
export function fnv1a(text: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export type Variants = ReturnType<typeof variants>;

/**
 * Deterministic choices for one brief and seed. Every choice (hook, structure, call to action, media)
 * starts from its own hash of the brief and moves on by one for each step of the seed, so seed n and
 * seed n + 1 differ in every choice that has more than one option.
 */
export function variants(briefKey: string, seed: number) {
  const index = (slot: string, count: number) => (fnv1a(`${briefKey}|${slot}`) + (seed % count)) % count;
  return {
    index,
    pick<T>(slot: string, options: readonly T[]): T {
      return options[index(slot, options.length)];
    },
    /** All options, starting at this seed's choice: the first one that fits wins. */
    rotate<T>(slot: string, options: readonly T[]): T[] {
      const start = index(slot, options.length);
      return [...options.slice(start), ...options.slice(0, start)];
    },
  };
}
