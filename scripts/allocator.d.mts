export function findJemalloc(): string | null;
export function allocatorEnv(
  env: Record<string, string | undefined>,
  jemalloc?: string | null,
): Record<string, string>;
