/** How often a streamed draft sends its partial draft, at most: the first goes at once. */
export const PARTIAL_EVERY_MS = 50;

/**
 * Passes on a growing value at most every PARTIAL_EVERY_MS, the first at once and then the latest one when
 * the wait ends: a model writes a token every few milliseconds, and serializing and writing the whole
 * partial draft per token is what a busy server spends its time on. `drop` forgets a pending value (a new
 * attempt starts over); `flush` sends it now.
 */
export function throttleLatest<T>(send: (value: T) => void, everyMs = PARTIAL_EVERY_MS) {
  let pending: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sentAt = Number.NEGATIVE_INFINITY;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    sentAt = performance.now();
    send(value);
  };
  return {
    push(value: T) {
      pending = { value };
      if (timer) return;
      const wait = everyMs - (performance.now() - sentAt);
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    flush,
    drop() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
