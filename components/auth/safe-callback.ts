/**
 * Only same-site paths may be returned to after sign-in. A browser reads `/\evil.example` (and a tab or
 * newline inside `//`) as `//evil.example`, another site: a path must start with one `/` followed by neither
 * `/` nor `\`, and hold no control characters or backslashes at all.
 */
export function safeCallbackUrl(value: string | null | undefined, fallback = "/studio") {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (!value?.startsWith("/") || /^\/[/\\]|[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  return value;
}
