import type { ProviderHealth } from "../provider";
import { getCircuitState } from "./circuit";

/** A hosted provider can take jobs unless its circuit breaker is open. */
export async function hostedProviderHealth(provider: string): Promise<ProviderHealth> {
  const circuit = await getCircuitState(provider);
  if (circuit.state !== "open") return { ok: true };
  return {
    ok: false,
    reason: `circuit open after repeated failures (${circuit.lastError ?? "unknown"})`,
    retryAfterSeconds: circuit.retryAfterSeconds,
  };
}
