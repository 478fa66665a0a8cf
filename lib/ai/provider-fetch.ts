import "server-only";

type PatchedFetch = typeof fetch & { _nextOriginalFetch?: typeof fetch };

/**
 * The runtime's own fetch, for calls to model providers. In a route handler `fetch` is Next's patched one,
 * whose caching bookkeeping (a cache key, a cloned request, its own span) a provider's answer never uses:
 * a POST to a model is never cached or deduplicated. The AI SDK's and our own spans still time the call.
 */
export const providerFetch: typeof fetch = (input, init) =>
  ((globalThis.fetch as PatchedFetch)._nextOriginalFetch ?? globalThis.fetch)(input, init);
