/** Only same-site paths may be returned to after sign-in. */
export function safeCallbackUrl(value: string | null | undefined, fallback = "/studio") {
  return value?.startsWith("/") && !value.startsWith("//") ? value : fallback;
}
