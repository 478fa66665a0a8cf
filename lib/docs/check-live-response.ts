import { operations } from "@/lib/contracts";
import { type ContractCheck, checkResponse, isUnknownRoute } from "./check-response";

export type LiveCheck = ContractCheck | { verdict: "no_contract" };

/**
 * Checks a live answer against the card's operation from the registry (its zod contract). The test panel
 * loads this module when the first answer arrives, so the docs pages ship no schema code up front.
 */
export function checkLiveResponse(cardId: string, status: number, body: unknown): LiveCheck {
  const operation = operations.find((candidate) => candidate.id === cardId);
  if (operation) return checkResponse(operation, status, body);
  return isUnknownRoute(cardId, status, body) ? { verdict: "not_implemented" } : { verdict: "no_contract" };
}
