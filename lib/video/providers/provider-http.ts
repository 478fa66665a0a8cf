import { getEnv } from "@/lib/config";
import { type CallFailure, countedCall, statusOutcome } from "@/lib/telemetry/counted-call";
import { setSpanAttributes, urlForSpan } from "@/lib/telemetry/tracing";
import { recordProviderFailure, recordProviderSuccess } from "./circuit";

/**
 * An answer from a hosted provider that is not a success. `transient` errors (5xx, timeouts, network
 * failures, 429) may be retried; others (4xx) will fail the same way again.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly options: { status?: number; transient: boolean; retryAfterSeconds?: number } = {
      transient: true,
    },
  ) {
    super(message);
    this.name = "ProviderError";
  }
  get transient() {
    return this.options.transient;
  }
  get status() {
    return this.options.status;
  }
  get retryAfterSeconds() {
    return this.options.retryAfterSeconds;
  }
}

/** Retry-After as seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The provider's own words for a failed request, from its JSON body where it gives any. */
function describeBody(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error as Record<string, unknown> | string | undefined;
    const candidates = [
      typeof error === "string" ? error : error?.message,
      typeof error === "object" ? error?.description : undefined,
      body.description,
      body.message,
      body.msg,
    ];
    const found = candidates.find((item): item is string => typeof item === "string" && item.length > 0);
    if (found) return found.slice(0, 300);
  } catch {}
  return text.slice(0, 200);
}

/**
 * One request to a hosted provider, with a timeout. Every 5xx answer, timeout or network failure counts
 * against the provider's circuit breaker; any other answer shows the provider is up and closes it.
 */
export function providerFetch(provider: string, url: string, init: RequestInit = {}): Promise<Response> {
  const method = init.method ?? "GET";
  return countedCall(
    provider,
    `${provider} ${method}`,
    { "http.request.method": method, "url.full": urlForSpan(url) },
    providerCallFailure,
    async (span) => {
      const response = await requestProvider(provider, url, init);
      setSpanAttributes(span, { "http.response.status_code": response.status });
      return response;
    },
  );
}

/** How a failed provider request ended, for its span and brand_studio_provider_calls_total. */
export function providerCallFailure(error: unknown): CallFailure {
  const status = error instanceof ProviderError ? error.status : undefined;
  if (status !== undefined) return { outcome: statusOutcome(status), status };
  const timedOut =
    (error as Error)?.name === "TimeoutError" ||
    (error instanceof ProviderError && /in time/.test(error.message));
  return { outcome: timedOut ? "timeout" : "unreachable" };
}

async function requestProvider(provider: string, url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(getEnv().PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    const reason =
      (error as Error).name === "TimeoutError" ? "did not answer in time" : "could not be reached";
    await recordProviderFailure(provider, reason);
    throw new ProviderError(provider, `${provider} ${reason}.`, { transient: true });
  }
  if (response.status >= 500) {
    const text = await response.text().catch(() => "");
    await recordProviderFailure(provider, `HTTP ${response.status}`);
    throw new ProviderError(provider, `${provider} answered ${response.status}: ${describeBody(text)}`, {
      status: response.status,
      transient: true,
    });
  }
  await recordProviderSuccess(provider);
  if (response.status === 429) {
    const text = await response.text().catch(() => "");
    throw new ProviderError(provider, `${provider} is rate limiting us: ${describeBody(text)}`, {
      status: 429,
      transient: true,
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")) ?? 5,
    });
  }
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new ProviderError(provider, describeBody(text) || `HTTP ${response.status}`, {
      status: response.status,
      transient: false,
    });
  }
  return response;
}

/** A JSON answer from a provider, or a ProviderError. */
export async function providerJson<T>(provider: string, url: string, init: RequestInit = {}): Promise<T> {
  const response = await providerFetch(provider, url, init);
  try {
    return (await response.json()) as T;
  } catch {
    throw new ProviderError(provider, `${provider} answered something that is not JSON.`, {
      transient: true,
    });
  }
}
