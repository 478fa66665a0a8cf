/**
 * The built-in policy list: terms no brand should publish, whatever its own banned words. It is short and
 * specific on purpose (phrases, not everyday words) so ordinary marketing copy never trips it; the
 * provider's moderation, when configured, covers the rest.
 */
export const POLICY_TERMS: Record<string, string[]> = {
  self_harm: ["suicide", "self-harm", "self harm", "kill yourself"],
  violence: ["terrorist attack", "mass shooting", "bomb threat", "ethnic cleansing"],
  illegal_drugs: ["cocaine", "heroin", "methamphetamine", "fentanyl"],
  weapons: ["assault rifle", "ghost gun", "untraceable gun"],
  sexual: ["porn", "pornography", "xxx", "nude photos"],
  fraud: ["get rich quick", "pyramid scheme", "double your money", "risk-free returns", "fake reviews"],
};
